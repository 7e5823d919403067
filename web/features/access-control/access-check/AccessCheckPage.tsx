/**
 * Access Control › Access check: "would this client be allowed?" The operator enters a client (or
 * picks a connected one), a topic and what to test; the check runs against the broker itself
 * (check.ts) and answers in sentences, with the raw reason codes and trace lines under Details.
 */
import { useState } from 'react';
import { ApiError, api } from '../../../lib/api.ts';
import { confirm } from '../../../lib/confirm.ts';
import { t } from '../../../lib/i18n.ts';
import { useRemote } from '../../../lib/resources.ts';
import { addStyleSheet } from '../../../lib/styles.ts';
import { Form } from '../../../ui/Form.tsx';
import type { FieldDecl } from '../../../ui/resource.ts';
import { runCheck, type CheckInput } from './check.ts';
import { rawCodes, sentences, type Sentence } from './verdict.ts';
import './messages.ts';

addStyleSheet('access-check', `
.access-check-result ul{padding:0}
.access-check-result li{list-style:none;margin:.35rem 0;padding:.5rem .75rem;border-left:4px solid var(--pico-ins-color);background:var(--pico-card-sectioning-background-color)}
.access-check-result li.bad{border-left-color:var(--pico-del-color)}
.access-check-result pre{white-space:pre-wrap;word-break:break-all;font-size:.78rem;padding:.5rem}
`);

interface ClientRow {
  clientid: string;
  username?: string | null;
}

const needsTopic = (_: unknown, values: Record<string, unknown>) =>
  (values.subscribe || values.publish) && !String(values.topic ?? '').trim() ? t('accessCheck.topicRequired') : undefined;

const FIELDS: FieldDecl[] = [
  { name: 'clientid', label: 'accessCheck.clientid', required: true },
  { name: 'username', label: 'login.username', autoComplete: 'off' },
  { name: 'password', label: 'login.password', kind: 'password', autoComplete: 'new-password' },
  { name: 'topic', label: 'accessCheck.topic', placeholder: 'secret/#', rules: [needsTopic] },
  { name: 'subscribe', label: 'accessCheck.subscribe', kind: 'switch' },
  { name: 'publish', label: 'accessCheck.publish', kind: 'switch' },
];

interface Outcome {
  url: string;
  sentences: Sentence[];
  codes: string;
  lines: string[];
}

/** Whether a client is connected under `clientid` now (a missing one is not). */
async function isConnected(clientid: string): Promise<boolean> {
  try {
    return Boolean((await api.get<{ connected?: boolean }>(`/clients/${encodeURIComponent(clientid)}`)).connected);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
}

export default function AccessCheckPage() {
  const clients = useRemote('clients', (signal) => api.get<{ data: ClientRow[] }>('/clients', { params: { conn_state: 'connected', limit: 100 }, signal }).then((r) => r.data));
  const [picked, setPicked] = useState<ClientRow | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [failure, setFailure] = useState('');
  // Counts the checks run, so a reader (or a test) tells this result from the one before.
  const [runs, setRuns] = useState(0);

  const run = async (values: Record<string, unknown>) => {
    const input: CheckInput = {
      clientid: String(values.clientid).trim(), username: String(values.username ?? '').trim(), password: String(values.password ?? ''),
      topic: String(values.topic ?? '').trim(), subscribe: Boolean(values.subscribe), publish: Boolean(values.publish),
    };
    // A client connected under that ID is taken over (clean start ends its session): asked first.
    if (await isConnected(input.clientid) && !(await confirm(t('accessCheck.confirmTakeover', { clientid: input.clientid }), { danger: true }))) return;
    // Publishing reaches real subscribers: nothing is sent without the operator's yes.
    if (input.publish && !(await confirm(t('accessCheck.confirmPublish', { topic: input.topic, clientid: input.clientid }), { okText: t('accessCheck.step.publish') }))) return;
    setOutcome(null);
    setFailure('');
    try {
      const result = await runCheck(input);
      setOutcome({ url: result.url, sentences: await sentences(result, input), codes: rawCodes(result), lines: result.lines });
      setRuns((n) => n + 1);
    } catch (error) {
      if (error instanceof Error && error.message === 'no-ws-listener') setFailure(t('accessCheck.noListener'));
      else throw error;
    }
  };

  return (
    <section class="access-check" data-test="access-check-page">
      <header class="page-head"><h2>{t('accessControl.accessCheck')}</h2></header>
      <p class="muted">{t('accessCheck.intro')}</p>
      <div class="field">
        <label htmlFor="access-check-existing">{t('accessCheck.existing')}</label>
        <select id="access-check-existing" data-test="access-check-existing" value={picked?.clientid ?? ''}
          onChange={(e) => setPicked((clients.data ?? []).find((c) => c.clientid === (e.target as HTMLSelectElement).value) ?? null)}>
          <option value="">—</option>
          {(clients.data ?? []).map((c) => <option key={c.clientid} value={c.clientid}>{c.clientid}{c.username ? ` (${c.username})` : ''}</option>)}
        </select>
      </div>
      <Form key={picked?.clientid ?? ''} fields={FIELDS} test="access-check-form" submitText={t('accessCheck.run')} onSubmit={run}
        initial={{ clientid: picked?.clientid ?? '', username: picked?.username ?? '', subscribe: true, publish: false }} />
      {failure && <p class="state state-error" role="alert" data-test="access-check-failure">{failure}</p>}
      {outcome && (
        <div class="access-check-result" data-test="access-check-result" data-run={runs} aria-live="polite">
          <ul>
            {outcome.sentences.map((s) => (
              <li key={s.test} data-test={s.test} data-ok={String(s.ok)} class={s.ok ? 'ok' : 'bad'}>
                <span aria-hidden="true">{s.ok ? '✓ ' : '✗ '}</span>{s.text}
              </li>
            ))}
          </ul>
          <details data-test="access-check-details">
            <summary>{t('accessCheck.details')}</summary>
            <p><code>{outcome.url}</code> <code data-test="access-check-codes">{outcome.codes}</code></p>
            <pre data-test="access-check-lines">{outcome.lines.join('\n')}</pre>
          </details>
        </div>
      )}
    </section>
  );
}
