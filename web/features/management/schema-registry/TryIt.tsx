/**
 * The try-it panel: decodes a hex/Base64 payload or encodes JSON with a saved schema by asking the
 * broker's rule tester (`POST /rule_test` with `schema_decode`/`schema_encode` in the SQL), so the
 * console carries no codec library. Protobuf needs the message type.
 */
import { useState } from 'react';
import { api, ApiError } from '../../../lib/api.ts';
import { errorText } from '../../../lib/errors.ts';
import { t } from '../../../lib/i18n.ts';
import type { Schema } from './schemaRegistry.tsx';
import './messages.ts';

type Mode = 'decode' | 'encode';
type Format = 'hex' | 'base64';

/** The rule SQL that runs one try: the payload travels in the test context, never in the SQL text. */
export function trySql(schema: Schema, mode: Mode, format: Format, messageType: string): string {
  const type = schema.type === 'protobuf' ? `, '${messageType}'` : '';
  if (mode === 'encode') return `SELECT bin2hexstr(schema_encode('${schema.name}', json_decode(payload)${type})) AS result FROM "t/#"`;
  const bytes = format === 'hex' ? 'hexstr2bin(payload)' : 'base64_decode(payload)';
  return `SELECT schema_decode('${schema.name}', ${bytes}${type}) AS result FROM "t/#"`;
}

/** Hex (any case, spaces allowed) to Base64, for showing an encoded result both ways. */
function hexToBase64(hex: string): string {
  const bytes = hex.match(/../g) ?? [];
  return btoa(bytes.map((b) => String.fromCharCode(parseInt(b, 16))).join(''));
}

export function TryIt({ schema }: { schema: Schema }) {
  const [mode, setMode] = useState<Mode>('decode');
  const [format, setFormat] = useState<Format>('hex');
  const [messageType, setMessageType] = useState('');
  const [payload, setPayload] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string; base64?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const protobuf = schema.type === 'protobuf';
  const typeOk = !protobuf || /^[A-Za-z_][\w.]*$/.test(messageType);

  const run = async (event: Event) => {
    event.preventDefault();
    if (!typeOk) return;
    setBusy(true);
    const text = mode === 'decode' ? payload.replace(/\s+/g, '') : payload;
    try {
      const out = await api.post<{ result: unknown }>('/rule_test', {
        sql: trySql(schema, mode, format, messageType),
        context: { event_type: 'message_publish', topic: 't/1', payload: text },
      });
      if (mode === 'encode') setResult({ ok: true, text: String(out.result), base64: hexToBase64(String(out.result)) });
      else setResult({ ok: true, text: JSON.stringify(out.result, null, 2) });
    } catch (error) {
      setResult({ ok: false, text: error instanceof ApiError && error.message ? `${error.code}: ${error.message}` : errorText(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <article class="schema-try" data-test="schema-try">
      <header><strong>{t('schemaRegistry.tryIt')}</strong> <small class="muted">{t('schemaRegistry.tryItHint')}</small></header>
      <form onSubmit={run}>
        <div class="grid">
          <label>{t('schemaRegistry.operation')}
            <select value={mode} data-test="try-mode" onChange={(e) => (setMode((e.target as HTMLSelectElement).value as Mode), setResult(null))}>
              <option value="decode">{t('schemaRegistry.decode')}</option>
              <option value="encode">{t('schemaRegistry.encode')}</option>
            </select>
          </label>
          {mode === 'decode' && (
            <label>{t('schemaRegistry.payloadFormat')}
              <select value={format} data-test="try-format" onChange={(e) => setFormat((e.target as HTMLSelectElement).value as Format)}>
                <option value="hex">Hex</option>
                <option value="base64">Base64</option>
              </select>
            </label>
          )}
          {protobuf && (
            <label>{t('schemaRegistry.messageType')}
              <input value={messageType} placeholder={t('schemaRegistry.messageTypeHint')} data-test="try-message-type" required
                aria-invalid={messageType !== '' && !typeOk ? true : undefined} onInput={(e) => setMessageType((e.target as HTMLInputElement).value.trim())} />
            </label>
          )}
        </div>
        <label>{t('schemaRegistry.payload')}
          <textarea rows={4} class="mono" value={payload} data-test="try-payload" spellcheck={false}
            placeholder={t(mode === 'decode' ? 'schemaRegistry.payloadDecodeHint' : 'schemaRegistry.payloadEncodeHint')}
            onInput={(e) => setPayload((e.target as HTMLTextAreaElement).value)} />
        </label>
        <button type="submit" aria-busy={busy} disabled={busy || !typeOk || payload.trim() === ''} data-test="try-run">{t('schemaRegistry.run')}</button>
      </form>
      {result && (
        <div data-test="try-result" class={result.ok ? 'schema-try-result' : 'schema-try-result failed'}>
          <small>{t(mode === 'encode' && result.ok ? 'schemaRegistry.resultHex' : 'schemaRegistry.result')}</small>
          <pre data-test="try-result-text">{result.text}</pre>
          {result.base64 !== undefined && <><small>Base64</small><pre data-test="try-result-base64">{result.base64}</pre></>}
        </div>
      )}
    </article>
  );
}
