/**
 * The rule editor page for `/rule/rules/create` and `/rule/rules/:id`: loads the rule and the
 * event catalogue (`GET /rule_events`) and the actions outputs may name, then the form; the detail
 * page adds the rule's metrics.
 */
import { api, isNotFound } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { useRemote } from '../../../lib/resources.ts';
import { Failed, Loading, NotFound } from '../../../ui/States.tsx';
import { RuleForm, type Draft } from './RuleForm.tsx';
import { RuleMetrics } from './RuleMetrics.tsx';
import { useOutputs } from './OutputsEditor.tsx';
import { rulePath, type Rule, type RuleEvent } from './rules.tsx';
import { DEFAULT_SQL } from './sql.ts';
import './messages.ts';

/** A new rule as the broker's console starts it: `rule_` and four random characters, `SELECT * FROM "t/#"`. */
const fresh = (): Draft => ({ id: `rule_${Math.random().toString(36).slice(2, 6)}`, description: '', enable: true, sql: DEFAULT_SQL, actions: [] });

const draftOf = (r: Rule): Draft => ({ id: r.id, description: r.description ?? '', enable: r.enable, sql: r.sql, actions: r.actions ?? [] });

export default function RuleEditor({ id: raw }: { id?: string }) {
  const id = raw === undefined ? undefined : decodeURIComponent(raw);
  const rule = useRemote('rules', (signal) => (id ? api.get<Rule>(rulePath(id), { signal }) : Promise.resolve(undefined)), id ?? '');
  const events = useRemote('rule_events', (signal) => api.get<RuleEvent[]>('/rule_events', { signal }), '');
  const outputs = useOutputs();
  const error = rule.error ?? events.error;
  if (isNotFound(rule.error)) {
    return <NotFound text={t('rules.notFound')} back="/rule/rules" backTitle="integration.rules" test="rule-not-found" />;
  }
  // Keep the form once shown: the metrics' reloads of 'rules' must not reset the user's edits.
  if ((id && !rule.data) || !events.data) return error ? <Failed error={error} retry={() => (rule.reload(), events.reload())} /> : <Loading />;
  return (
    <section data-test="rule-editor">
      {id && <RuleMetrics id={id} />}
      <RuleForm key={id ?? 'new'} initial={rule.data ? draftOf(rule.data) : fresh()} events={events.data} outputs={outputs} creating={!id} />
    </section>
  );
}
