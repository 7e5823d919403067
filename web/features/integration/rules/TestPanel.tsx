/**
 * The SQL test of the rule editor: pick the input event, edit its test data (prefilled from
 * `/rule_events` test columns), then `POST /rule_test` with `{sql, context: {...columns,
 * event_type}}` (emqx-api-part2 §5.6) and show the output JSON, or 'SQL Not Match' on 412.
 */
import { useEffect, useState } from 'react';
import { api, ApiError } from '../../../lib/api.ts';
import { errorText, handleError } from '../../../lib/errors.ts';
import { t } from '../../../lib/i18n.ts';
import { eventOf, eventType, fromList, sampleTopic } from './sql.ts';
import { eventText } from './eventText.ts';
import type { RuleEvent } from './rules.tsx';
import './messages.ts';

type Result = { kind: 'output' | 'nomatch' | 'error'; text: string };

const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** Text from the form back to the example's type: numbers, booleans and objects stay what they were. */
function typed(text: string, example: unknown): unknown {
  if (typeof example === 'number' && text.trim() !== '' && !Number.isNaN(Number(text))) return Number(text);
  if (typeof example === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if (example !== null && typeof example === 'object') {
    try {
      return JSON.parse(text);
    } catch {
      return text; // not JSON any more: the broker gets the text and decides
    }
  }
  return text;
}

function initialContext(event: RuleEvent | undefined, from: string | undefined): Record<string, string> {
  const values = Object.fromEntries(Object.entries(event?.test_columns ?? {}).map(([k, [v]]) => [k, asText(v)]));
  // A plain topic FROM is tested with a topic it matches, so the first run is not a needless 'not match'.
  if ('topic' in values && from && !from.startsWith('$')) values.topic = sampleTopic(from);
  return values;
}

export function TestPanel({ sql, events }: { sql: string; events: RuleEvent[] }) {
  const from = fromList(sql)[0];
  const [event, setEvent] = useState(eventOf(from));
  const current = events.find((e) => e.event === event);
  const [context, setContext] = useState(() => initialContext(current, from));
  const [result, setResult] = useState<Result | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setContext(initialContext(current, from)), [event, events.length]);

  const run = async () => {
    const columns = Object.fromEntries(Object.entries(context).map(([k, v]) => [k, typed(v, current?.test_columns[k]?.[0])]));
    setBusy(true);
    try {
      const output = await api.post('/rule_test', { sql, context: { ...columns, event_type: eventType(event) } });
      setResult({ kind: 'output', text: JSON.stringify(output, null, 2) });
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) setResult({ kind: 'nomatch', text: t('rules.sqlNotMatch') });
      else if (error instanceof ApiError && error.status === 400) setResult({ kind: 'error', text: errorText(error) });
      else handleError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="rule-test" data-test="rule-test">
      <h3 class="section-title">{t('rules.testSql')}</h3>
      <label>
        {t('rules.testEvent')}
        <select value={event} data-test="rule-test-event" onChange={(e) => setEvent(e.currentTarget.value)}>
          {events.map((e) => <option key={e.event} value={e.event}>{`${eventText(e, 'title')} (${e.event})`}</option>)}
        </select>
      </label>
      <fieldset class="rule-grid" data-test="rule-test-context" aria-label={t('rules.testContext')}>
        {Object.keys(context).map((key) => (
          <label key={key} class={key === 'payload' ? 'wide' : undefined}>
            <code>{key}</code>
            {key === 'payload'
              ? <textarea rows={4} value={context[key]} data-test="rule-test-payload" onInput={(e) => setContext({ ...context, [key]: e.currentTarget.value })} />
              : <input value={context[key]} data-test={`rule-test-${key}`} title={current?.test_columns[key]?.[1]} onInput={(e) => setContext({ ...context, [key]: e.currentTarget.value })} />}
          </label>
        ))}
      </fieldset>
      <button type="button" data-test="rule-test-run" aria-busy={busy} disabled={busy || !sql.trim()} onClick={run}>{t('rules.runTest')}</button>
      {result && (
        <>
          <h4>{t('rules.testOutput')}</h4>
          <pre class={`rule-test-result${result.kind === 'output' ? '' : ' field-error'}`} data-test={`rule-test-${result.kind}`}>{result.text}</pre>
        </>
      )}
    </section>
  );
}
