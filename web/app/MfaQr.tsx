/**
 * The QR code of an `otpauth://` setup URI as an SVG path (uqr encodes it; the path is drawn
 * here, so no markup string is ever parsed). Dark modules on a light quiet zone in both themes,
 * as scanners expect. Loaded only by the MFA setup step of the login page.
 */
import { encode } from 'uqr';

export function MfaQr(props: { uri: string }) {
  // Medium error correction and the standard 4-module quiet zone.
  const { size, data } = encode(props.uri, { ecc: 'M', border: 4 });
  let path = '';
  data.forEach((row, y) => row.forEach((dark, x) => { if (dark) path += `M${x} ${y}h1v1h-1z`; }));
  return (
    <svg viewBox={`0 0 ${size} ${size}`} width="176" height="176" shape-rendering="crispEdges" aria-hidden="true">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
