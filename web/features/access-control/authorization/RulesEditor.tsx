/**
 * Edits the rule list of one client, one user or of all clients (api part2 §3.3): permission,
 * action, topic (placeholders `${username}`/`${clientid}`, `eq ` prefix for a literal match), QoS
 * and retain, one row per rule. Saving sends the whole list, which replaces the stored one. With
 * `subject` it also asks whose rules they are, for adding a client or user with several rules at once.
 */
import { useState } from 'react';
import { handleError } from '../../../lib/errors.ts';
import { t } from '../../../lib/i18n.ts';
import { useUnsavedGuard } from '../../../lib/navigation.ts';
import { requiredText, topicFilter } from '../../../lib/validators.ts';
import { useSnapshotFirst } from '../../../ui/SnapshotFirst.tsx';
import './messages.ts';

export interface AclRule {
  permission: 'allow' | 'deny';
  action: 'publish' | 'subscribe' | 'all';
  topic: string;
  qos?: number[];
  retain?: 'all' | boolean;
}

export const newRule = (): AclRule => ({ permission: 'allow', action: 'publish', topic: '', qos: [0, 1, 2], retain: 'all' });

/** A topic problem, or undefined; `eq ` topics are literal, so only emptiness is checked. */
export function ruleProblem(rule: AclRule): string | undefined {
  if (!rule.topic.trim()) return t('validation.topicRequired');
  return rule.topic.startsWith('eq ') ? undefined : topicFilter(rule.topic, {});
}

const sel = (value: string, values: string[], prefix: string, onChange: (v: string) => void, _label: string, test: string) => (
  <select value={value} data-test={test} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
    {values.map((v) => <option key={v} value={v}>{t(`${prefix}${v}`)}</option>)}
  </select>
);

export function RulesEditor(props: {
  rules: AclRule[];
  onSave: (rules: AclRule[], subject: string) => Promise<unknown>;
  test?: string;
  /** i18n key of the label of a client ID or username asked above the rules. */
  subject?: string;
}) {
  const [rules, setRules] = useState<AclRule[]>(props.rules.map((r) => ({ ...newRule(), ...r })));
  const [problems, setProblems] = useState<(string | undefined)[]>([]);
  const [subject, setSubject] = useState('');
  const [subjectProblem, setSubjectProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  useUnsavedGuard(JSON.stringify(rules) !== JSON.stringify(props.rules.map((r) => ({ ...newRule(), ...r }))) && !busy);
  const patch = (i: number, change: Partial<AclRule>) => setRules(rules.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const move = (i: number, by: number) => {
    const next = [...rules];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    setRules(next);
  };
  const toggleQos = (i: number, q: number) => {
    const qos = rules[i].qos ?? [];
    patch(i, { qos: qos.includes(q) ? qos.filter((x) => x !== q) : [...qos, q].sort() });
  };
  const snap = useSnapshotFirst();
  const save = async () => {
    const found = rules.map(ruleProblem);
    const who = props.subject && !subject.trim() ? requiredText(props.subject) : undefined;
    setProblems(found);
    setSubjectProblem(who);
    if (found.some(Boolean) || who) return;
    setBusy(true);
    try {
      await snap.before();
      await props.onSave(rules, subject.trim());
    } catch (error) {
      handleError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="rules-editor" data-test={props.test ?? 'rules-editor'}>
      {props.subject && (
        <label>{t(props.subject)}<span class="required" aria-hidden="true"> *</span>
          <input value={subject} aria-invalid={subjectProblem ? 'true' : undefined} data-test="rule-subject" onInput={(e) => setSubject((e.target as HTMLInputElement).value)} />
          {subjectProblem && <small class="field-error" data-test="rule-subject-error">{subjectProblem}</small>}
        </label>
      )}
      <ol class="rule-list">
        {rules.map((rule, i) => (
          <li key={i} class="rule-card" data-test="rule-row">
            <label>{t('authz.permission')}{sel(rule.permission, ['allow', 'deny'], 'authz.perm.', (v) => patch(i, { permission: v as AclRule['permission'] }), 'authz.permission', 'rule-permission')}</label>
            <label>{t('authz.action')}{sel(rule.action, ['publish', 'subscribe', 'all'], 'authz.act.', (v) => patch(i, { action: v as AclRule['action'] }), 'authz.action', 'rule-action')}</label>
            <label>{t('authz.retain')}
              {rule.action === 'subscribe' ? <span class="muted">—</span> : sel(String(rule.retain ?? 'all'), ['all', 'true', 'false'], 'authz.retainOpt.', (v) => patch(i, { retain: v === 'all' ? 'all' : v === 'true' }), 'authz.retain', 'rule-retain')}
            </label>
            <label class="rule-topic">{t('authz.topic')}
              <input value={rule.topic} placeholder="t/${clientid}/#" aria-invalid={problems[i] ? 'true' : undefined} data-test="rule-topic"
                onInput={(e) => patch(i, { topic: (e.target as HTMLInputElement).value })} />
              {problems[i] && <small class="field-error" data-test="rule-error">{problems[i]}</small>}
            </label>
            <fieldset class="rule-qos"><legend>QoS</legend>
              {[0, 1, 2].map((q) => (
                <label key={q} class="inline-check"><input type="checkbox" checked={rule.qos?.includes(q)} onChange={() => toggleQos(i, q)} data-test={`rule-qos-${q}`} />{q}</label>
              ))}
            </fieldset>
            <div class="rule-tools">
              <button type="button" class="link" disabled={i === 0} onClick={() => move(i, -1)}>{t('access.moveUp')}</button>
              <button type="button" class="link" disabled={i === rules.length - 1} onClick={() => move(i, 1)}>{t('access.moveDown')}</button>
              <button type="button" class="link danger" onClick={() => setRules(rules.filter((_, j) => j !== i))} data-test="rule-remove">{t('common.delete')}</button>
            </div>
          </li>
        ))}
      </ol>
      {rules.length === 0 && <p class="state muted">{t('authz.noRules')}</p>}
      <div class="form-actions">
        {snap.box}
        <button type="button" class="secondary outline" onClick={() => setRules([...rules, newRule()])} data-test="rule-add">{t('authz.addRule')}</button>
        <button type="button" aria-busy={busy} disabled={busy} onClick={save} data-test="rules-save">{t('common.save')}</button>
      </div>
    </div>
  );
}
