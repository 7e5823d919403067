/**
 * Creating (`POST /schema_registry`, 201) or editing (`PUT /schema_registry/{name}`) a schema: name,
 * type, description and the source in the code editor; the server compiles it and its error is
 * shown under the editor and marked at its line. A saved schema gets the try-it panel.
 */
import { useState } from 'react';
import { api, ApiError } from '../../../lib/api.ts';
import { handleError } from '../../../lib/errors.ts';
import { t } from '../../../lib/i18n.ts';
import { navigate } from '../../../lib/navigation.ts';
import { touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { requiredText } from '../../../lib/rules.ts';
import { CodeEditor } from '../../../ui/CodeEditor.tsx';
import { Failed, Loading } from '../../../ui/States.tsx';
import { schemaPath, TYPE_LABELS, type Schema } from './schemaRegistry.tsx';
import { errorLine, tokenizeSchema } from './sourceTokens.ts';
import { TryIt } from './TryIt.tsx';
import './messages.ts';

const SAMPLES: Record<Schema['type'], string> = {
  avro: '{\n  "type": "record",\n  "name": "Reading",\n  "fields": [\n    { "name": "device", "type": "string" },\n    { "name": "temp", "type": "int" }\n  ]\n}\n',
  protobuf: 'syntax = "proto3";\npackage demo;\n\nmessage Person {\n  string name = 1;\n  int32 age = 2;\n}\n',
  json: '{\n  "type": "object",\n  "properties": {\n    "temp": { "type": "number" }\n  },\n  "required": ["temp"]\n}\n',
};
const NAME = /^[a-zA-Z][a-zA-Z0-9_-]*$/;

function Editor({ schema }: { schema?: Schema }) {
  const [form, setForm] = useState<Omit<Schema, 'name'> & { name: string }>(schema ?? { name: '', type: 'avro', source: SAMPLES.avro, description: '' });
  const [problem, setProblem] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<Schema>) => setForm((f) => ({ ...f, ...patch }));
  const changeType = (type: Schema['type']) => set({ type, source: !schema && form.source === SAMPLES[form.type] ? SAMPLES[type] : form.source });

  const save = async (event: Event) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!schema && !form.name) found.name = t('validation.nameRequired');
    else if (!schema && !NAME.test(form.name)) found.name = t('validation.strictNamePattern');
    if (!form.source.trim()) found.source = requiredText('schemaRegistry.source');
    setProblem(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const body = { type: form.type, source: form.source, description: form.description };
      if (schema) await api.put(schemaPath(schema.name), body);
      else await api.post('/schema_registry', { name: form.name, ...body });
      toast(t(schema ? 'schemaRegistry.updated' : 'schemaRegistry.created'));
      touch('schema_registry');
      if (!schema) await navigate(`/schema-registry/detail/${encodeURIComponent(form.name)}`, { force: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.code === 'BAD_REQUEST' && /serde|line|schema/i.test(error.message)) setProblem({ source: error.message });
      else handleError(error);
    } finally {
      setBusy(false);
    }
  };

  const line = problem.source ? errorLine(problem.source) : undefined;
  return (
    <div class="schema-edit">
      <form class="settings-form" onSubmit={save} data-test="schema-form" noValidate>
        <label>{t('schemaRegistry.name')}
          <input value={form.name} disabled={Boolean(schema)} aria-invalid={problem.name ? true : undefined} data-test="schema-name"
            onInput={(e) => set({ name: (e.target as HTMLInputElement).value })} />
          {problem.name && <small class="field-error">{problem.name}</small>}
        </label>
        <label>{t('schemaRegistry.type')}
          <select value={form.type} data-test="schema-type" onChange={(e) => changeType((e.target as HTMLSelectElement).value as Schema['type'])}>
            {Object.entries(TYPE_LABELS).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </label>
        <label>{t('schemaRegistry.description')}
          <input value={form.description} data-test="schema-description" onInput={(e) => set({ description: (e.target as HTMLInputElement).value })} />
        </label>
        <div class="field">
          <span>{t('schemaRegistry.source')}</span>
          <CodeEditor value={form.source} onChange={(source) => (set({ source }), setProblem(({ source: _, ...rest }) => rest))} label={t('schemaRegistry.source')}
            test="schema-source" tokenize={tokenizeSchema} invalid={Boolean(problem.source)} errorLine={line} minLines={10} />
          {problem.source && (
            <p class="field-error schema-error" role="alert" data-test="schema-error">
              <strong>{t('schemaRegistry.compileError')}{line ? ` · ${t('schemaRegistry.atLine', { line })}` : ''}</strong>
              <br />{problem.source}
            </p>
          )}
        </div>
        <div class="form-actions">
          <button type="button" class="secondary" onClick={() => void navigate('/schema-registry')}>{t('common.cancel')}</button>
          <button type="submit" aria-busy={busy} disabled={busy} data-test="schema-save">{t(schema ? 'common.save' : 'common.create')}</button>
        </div>
      </form>
      {schema ? <TryIt schema={schema} /> : <p class="muted" data-test="schema-try-later">{t('schemaRegistry.saveFirst')}</p>}
    </div>
  );
}

export default function SchemaEdit({ name }: { name?: string }) {
  const decoded = name === undefined ? undefined : decodeURIComponent(name);
  const remote = useRemote('schema_registry', (signal) => (decoded === undefined ? Promise.resolve(undefined) : api.get<Schema>(schemaPath(decoded), { signal })), decoded ?? '');
  return (
    <section data-test="schema-edit-page">
      <header class="page-head"><h2>{t(decoded === undefined ? 'schemaRegistry.create' : 'schemaRegistry.edit')}{decoded ? ` · ${decoded}` : ''}</h2></header>
      {decoded === undefined ? <Editor /> : remote.error
        ? <Failed error={remote.error} retry={remote.reload} missing={{ text: t('schemaRegistry.notFound', { name: decoded }), back: '/schema-registry', backTitle: 'management.schemaRegistry' }} />
        : remote.loading && !remote.data ? <Loading /> : remote.data ? <Editor key={remote.data.name} schema={remote.data} /> : null}
    </section>
  );
}
