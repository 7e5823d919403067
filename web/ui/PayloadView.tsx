/**
 * Shows an MQTT payload as plaintext, base64, JSON or hex. Input is the base64 the API returns.
 * Payloads over 1 MB are not rendered, only their size (spec part1 §9, security.md S13); bytes
 * that are not UTF-8 open as hex. Everything is text, never markup (S12).
 */
import { useState } from 'react';
import { formatBytes } from '../lib/format.ts';
import { defineMessages, t } from '../lib/i18n.ts';

defineMessages({
  'payload.plaintext': { zh: '文本', en: 'Plaintext' },
  'payload.base64': { zh: 'Base64', en: 'Base64' },
  'payload.json': { zh: 'JSON', en: 'JSON' },
  'payload.hex': { zh: 'Hex', en: 'Hex' },
  'payload.tooLarge': { zh: '消息体过大（{{size}}），超过 1 MB 的消息不予显示', en: 'The payload is {{size}}: payloads over 1 MB are not shown' },
  'payload.notText': { zh: '消息体不是 UTF-8 文本，请用 Hex 或 Base64 查看', en: 'The payload is not UTF-8 text: view it as hex or base64' },
  'payload.notJson': { zh: '消息体不是合法的 JSON', en: 'The payload is not valid JSON' },
});

export const PAYLOAD_VIEW_LIMIT = 1024 * 1024;
export type Encoding = 'plaintext' | 'base64' | 'json' | 'hex';
const ENCODINGS: Encoding[] = ['plaintext', 'base64', 'json', 'hex'];

/** Decodes base64 to bytes (atob is enough for the sizes we render). */
export function fromBase64(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** The text of `bytes` in `encoding`; null when they cannot be shown that way. */
export function encodePayload(bytes: Uint8Array, base64: string, encoding: Encoding): string | null {
  if (encoding === 'base64') return base64;
  if (encoding === 'hex') return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  if (encoding === 'plaintext') return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return null;
  }
}

export function PayloadView({ base64, size }: { base64: string; size?: number }) {
  const bytes = size ?? Math.floor((base64.length * 3) / 4);
  const tooBig = bytes > PAYLOAD_VIEW_LIMIT;
  const decoded = tooBig ? new Uint8Array() : fromBase64(base64);
  const [encoding, setEncoding] = useState<Encoding>(() => (encodePayload(decoded, base64, 'plaintext') === null ? 'hex' : 'plaintext'));
  if (tooBig) return <p class="muted" data-test="payload-too-large">{t('payload.tooLarge', { size: formatBytes(bytes) })}</p>;
  const text = encodePayload(decoded, base64, encoding);
  return (
    <div class="payload" data-test="payload-view">
      <div role="group" class="encodings">
        {ENCODINGS.map((e) => (
          <button type="button" key={e} class={e === encoding ? '' : 'secondary outline'} aria-pressed={e === encoding}
            data-test={`payload-${e}`} onClick={() => setEncoding(e)}>{t(`payload.${e}`)}</button>
        ))}
      </div>
      {text === null
        ? <p class="field-error" data-test="payload-undecodable">{t(encoding === 'json' ? 'payload.notJson' : 'payload.notText')}</p>
        : <pre data-test="payload-text">{text}</pre>}
      <small class="muted">{formatBytes(decoded.length)}</small>
    </div>
  );
}
