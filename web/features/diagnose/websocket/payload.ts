/**
 * Payload encodings of the test client: turning what the user typed (plaintext, base64, JSON or
 * hex) into bytes before publishing, and bytes back into text for the message lists. Rendering
 * large payloads is the list's business; this module only converts.
 */
import { t } from '../../../lib/i18n.ts';
import { encodePayload, PAYLOAD_VIEW_LIMIT, type Encoding } from '../../../ui/PayloadView.tsx';
import '../../../lib/validators.ts';

export type { Encoding };
export const ENCODINGS: readonly Encoding[] = ['plaintext', 'base64', 'json', 'hex'];

/** Bytes of `text` read in `encoding`, or the translated reason it cannot be read that way. */
export function parsePayload(text: string, encoding: Encoding): { bytes: Uint8Array } | { error: string } {
  if (encoding === 'plaintext') return { bytes: new TextEncoder().encode(text) };
  if (encoding === 'json') {
    try {
      JSON.parse(text);
    } catch {
      return { error: t('validation.json') };
    }
    return { bytes: new TextEncoder().encode(text) };
  }
  const compact = text.replace(/\s+/g, '');
  if (encoding === 'hex') {
    const digits = compact.replace(/^0x/i, '');
    if (digits.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(digits)) return { error: t('websocket.invalidHex') };
    return { bytes: Uint8Array.from(digits.match(/../g) ?? [], (pair) => parseInt(pair, 16)) };
  }
  // RFC 4648 §4: groups of four, '=' only as padding at the end.
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return { error: t('websocket.invalidBase64') };
  return { bytes: Uint8Array.from(atob(compact), (c) => c.charCodeAt(0)) };
}

/** Base64 of `bytes`, built in slices so large payloads do not overflow the argument list. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Characters a list row shows at most; the full payload opens in the payload viewer. */
export const ROW_TEXT_LIMIT = 600;

/**
 * One-line text of a payload for a list row: JSON compacted, anything longer than the row limit
 * cut, null when the bytes cannot be shown in `encoding`; payloads over 1 MB are never decoded.
 */
export function rowText(bytes: Uint8Array | null, size: number, encoding: Encoding): string | null {
  if (!bytes || size > PAYLOAD_VIEW_LIMIT) return null;
  // Hex and base64 of a long payload only need its head for one row (450 bytes are 600 base64
  // characters, 200 bytes about 600 hex ones).
  const cut = encoding === 'hex' ? 200 : encoding === 'base64' ? 450 : Infinity;
  const head = bytes.length > cut ? bytes.subarray(0, cut) : bytes;
  const text = encodePayload(head, encoding === 'base64' ? toBase64(head) : '', encoding);
  if (text === null) return null;
  const line = encoding === 'json' ? JSON.stringify(JSON.parse(text)) : text;
  return line.length > ROW_TEXT_LIMIT || head !== bytes ? `${line.slice(0, ROW_TEXT_LIMIT)}…` : line;
}
