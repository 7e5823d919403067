/**
 * The rule form shared by create and detail: id, note, enable, the SQL editor with examples and
 * the test panel, outputs, and the data inputs beside them. Saves with `POST /rules` (create) or
 * `PUT /rules/{id}` (update); a 400 about the id or the SQL is shown at that field.
 */
import { useMemo, useState } from 'react';
import { api, ApiError } from '../../../lib/api.ts';
import { canWrite } from '../../../lib/broker.ts';
import { handleError } from '../../../lib/errors.ts';
import { t } from '../../../lib/i18n.ts';
import { navigate, useUnsavedGuard } from '../../../lib/navigation.ts';
import { touch, type Remote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { publishTopic, requiredText } from '../../../lib/validators.ts';
import { CodeEditor } from '../../../ui/CodeEditor.tsx';
import { Writable } from '../../../ui/Writable.tsx';
import { InputsHelper } from './InputsHelper.tsx';
import type { Outputs } from './ActionPicker.tsx';
import { OutputsEditor } from './OutputsEditor.tsx';
import { rulePath, type RuleAction, type RuleEvent } from './rules.tsx';
import { addField, addFrom } from './sql.ts';
import { completions } from './sqlWords.ts';
import { TemplatesDrawer } from './TemplatesDrawer.tsx';
import { FunctionsDrawer } from './FunctionsDrawer.tsx';
import { TestPanel } from './TestPanel.tsx';
import './messages.ts';

export interface Draft {
  id: string;
  description: string;
  enable: boolean;
  sql: string;
  actions: RuleAction[];
}

type Errors = { id?: string; sql?: string; topics?: Record<number, string> };

function check(d: Draft): Errors {
  const errors: Errors = {};
  if (!d.id.trim()) errors.id = t('rules.idRequired');
  if (!d.sql.trim()) errors.sql = requiredText('rules.sql');
  const topics: Record<number, string> = {};
  d.actions.forEach((a, i) => {
    if (typeof a !== 'string' && a.function === 'republish') {
      const topic = String(a.args?.topic ?? '');
      const problem = topic.trim() ? publishTopic(topic, {}) : t('validation.topicRequired');
      if (problem) topics[i] = problem;
    }
  });
  if (Object.keys(topics).length) errors.topics = topics;
  return errors;
}

/** Which field a 400 of `/rules` is about: "rule id ..." messages, or "Bad Arguments" (the SQL). */
function serverError(error: unknown): Errors | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  if (/rule id/i.test(error.message)) return { id: error.message };
  if (/Bad Arguments|parse_error|sql/i.test(error.message)) return { sql: error.message };
  return undefined;
}

export function RuleForm({ initial, events, outputs, creating }: { initial: Draft; events: RuleEvent[]; outputs: Remote<Outputs>; creating: boolean }) {
  const [saved, setSaved] = useState(initial);
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [testing, setTesting] = useState(false);
  const [templates, setTemplates] = useState(false);
  const [functions, setFunctions] = useState(false);
  const words = useMemo(() => completions(events.flatMap((e) => e.columns)), [events]);
  useUnsavedGuard(JSON.stringify(draft) !== JSON.stringify(saved) && !busy);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));

  const save = async (event: Event) => {
    event.preventDefault();
    const found = check(draft);
    setErrors(found);
    if (Object.keys(found).length) return;
    const body = { sql: draft.sql, actions: draft.actions, enable: draft.enable, description: draft.description };
    setBusy(true);
    try {
      if (creating) await api.post('/rules', { id: draft.id.trim(), ...body });
      else await api.put(rulePath(draft.id), body);
      toast(t(creating ? 'rules.created' : 'rules.saved'));
      touch('rules');
      setSaved(draft);
      if (creating) await navigate('/rule/rules', { force: true });
    } catch (error) {
      const fields = serverError(error);
      if (fields) setErrors(fields);
      else handleError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="rule-editor" onSubmit={save} noValidate data-test="rule-form">
      <div>
        <Writable>
        <div class="grid">
          <label>
            {t('rules.id')}
            <input value={draft.id} disabled={!creating} aria-invalid={errors.id ? true : undefined} data-test="rule-id"
              onInput={(e) => set({ id: e.currentTarget.value })} />
            {errors.id && <small class="field-error" data-test="rule-id-error">{errors.id}</small>}
          </label>
          <label>
            {t('rules.description')}
            <input value={draft.description} data-test="rule-description" onInput={(e) => set({ description: e.currentTarget.value })} />
          </label>
        </div>
        <label>
          <input type="checkbox" role="switch" checked={draft.enable} data-test="rule-enable" onChange={(e) => set({ enable: e.currentTarget.checked })} />
          {t('rules.enable')}
        </label>
        <div class="sql-toolbar">
          <label for="rule-sql">{t('rules.sql')}</label>
          <span class="toolbar">
            <button type="button" class="secondary outline" data-test="rule-templates-open" onClick={() => setTemplates(true)}>{t('rules.templates')}</button>
            <button type="button" class="secondary outline" data-test="rule-functions-open" onClick={() => setFunctions(true)}>{t('rules.functions')}</button>
            <button type="button" class="secondary outline" data-test="rule-test-toggle" aria-pressed={testing} onClick={() => setTesting(!testing)}>
              {t(testing ? 'rules.hideTest' : 'rules.testSql')}
            </button>
          </span>
        </div>
        <CodeEditor id="rule-sql" label={t('rules.sqlEditor')} value={draft.sql} onChange={(sql) => set({ sql })} completions={words}
          invalid={!!errors.sql} test="rule-sql" minLines={6} />
        {errors.sql && <small class="field-error" data-test="rule-sql-error">{errors.sql}</small>}
        {testing && <TestPanel sql={draft.sql} events={events} />}
        <OutputsEditor outputs={outputs} actions={draft.actions} onChange={(actions) => set({ actions })} errors={errors.topics ?? {}} />
        </Writable>
        <div class="toolbar form-actions">
          {canWrite() && <button type="submit" aria-busy={busy} disabled={busy} data-test="rule-save">{t(creating ? 'common.create' : 'common.save')}</button>}
          <button type="button" class="secondary" data-test="rule-cancel" onClick={() => void navigate('/rule/rules')}>{t('common.cancel')}</button>
        </div>
      </div>
      <Writable><InputsHelper events={events} onAdd={(source) => set({ sql: addFrom(draft.sql, source) })} /></Writable>
      {templates && <TemplatesDrawer onUse={(sql) => set({ sql })} onClose={() => setTemplates(false)} />}
      {functions && <FunctionsDrawer onUse={(sig) => set({ sql: addField(draft.sql, sig) })} onClose={() => setFunctions(false)} />}
    </form>
  );
}
