/**
 * A plugin's detail (`GET /plugins/{name-vsn}`): what its release.json says, its run state per
 * node, its README rendered (ui/Markdown.tsx, inert whatever it holds), and its configuration form when the package has an Avro
 * schema (`GET /plugins/{id}/schema`, `GET|PUT /plugins/{id}/config`): only asked of brokers that
 * have them (`pluginSchema`, 5.8); 5.5 answers 405 there.
 */
import { api, ApiError, isNotFound } from '../../../lib/api.ts';
import { has } from '../../../lib/broker.ts';
import { Markdown } from '../../../ui/Markdown.tsx';
import { t } from '../../../lib/i18n.ts';
import { useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { Descriptions } from '../../../ui/Descriptions.tsx';
import { Form } from '../../../ui/Form.tsx';
import type { FieldDecl } from '../../../ui/resource.ts';
import { Failed, Loading, NotFound } from '../../../ui/States.tsx';
import { PluginStatus, RunStates } from './PluginCells.tsx';
import { pluginPath, type Plugin } from './plugins.tsx';
import './messages.ts';

interface AvroField {
  name: string;
  type: unknown;
  doc?: string;
}

/** Form fields for the top-level fields of an Avro record; nested types are edited as JSON text. */
function avroFields(avsc: { fields?: AvroField[] }): FieldDecl[] {
  return (avsc.fields ?? []).map((f) => {
    const type = Array.isArray(f.type) ? f.type.find((x) => x !== 'null') : f.type;
    const symbols = (type as { symbols?: string[] })?.symbols;
    if (symbols) return { name: f.name, label: f.name, kind: 'select', options: symbols.map((s) => ({ value: s, label: s })) };
    if (type === 'boolean') return { name: f.name, label: f.name, kind: 'switch' };
    if (type === 'int' || type === 'long' || type === 'float' || type === 'double') return { name: f.name, label: f.name, kind: 'number' };
    if (type === 'string') return { name: f.name, label: f.name };
    return { name: f.name, label: f.name, kind: 'code' };
  });
}

function PluginConfig({ id }: { id: string }) {
  const load = async (signal: AbortSignal) => {
    const schema = await api.get<{ avsc?: { fields?: AvroField[] } | null }>(pluginPath(id, '/schema'), { signal }).catch((error) => {
      // No schema in the package: the plugin simply has no form.
      if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
      throw error;
    });
    if (!schema?.avsc) return null;
    const config = await api.get<Record<string, unknown>>(pluginPath(id, '/config'), { signal });
    return { fields: avroFields(schema.avsc), config };
  };
  const remote = useRemote('plugin-config', load, id);
  if (remote.error) return <Failed error={remote.error} retry={remote.reload} />;
  if (!remote.data) return remote.loading ? <Loading /> : null;
  const { fields, config } = remote.data;
  const codes = fields.filter((f) => f.kind === 'code').map((f) => f.name);
  const initial = Object.fromEntries(fields.map((f) => [f.name, codes.includes(f.name) ? JSON.stringify(config[f.name] ?? null, null, 2) : config[f.name]]));
  const save = async (values: Record<string, unknown>) => {
    const body = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, codes.includes(k) ? JSON.parse(String(v)) : v]));
    await api.put(pluginPath(id, '/config'), body);
    toast(t('plugins.configSaved'));
  };
  return (
    <article class="settings-form" data-test="plugin-config">
      <h3 class="section-title">{t('plugins.config')}</h3>
      <Form fields={fields} initial={initial} onSubmit={save} test="plugin-config-form" />
    </article>
  );
}

export default function PluginDetail({ nameVersion }: { nameVersion: string }) {
  const id = decodeURIComponent(nameVersion);
  const remote = useRemote('plugins', (signal) => api.get<Plugin>(pluginPath(id), { signal }), id);
  const error = remote.error;
  if (isNotFound(error)) {
    return <NotFound text={t('plugins.notFound')} back="/plugins" backTitle="management.plugins" test="plugin-not-found" />;
  }
  const p = remote.data;
  if (!p) return error ? <Failed error={error} retry={remote.reload} /> : <Loading />;
  return (
    <section data-test="plugin-detail">
      <header class="page-head">
        <h2>{p.name} <PluginStatus plugin={p} /></h2>
      </header>
      <Descriptions test="plugin-info" items={[
        ['plugins.name', p.name],
        ['plugins.version', p.rel_vsn],
        ['plugins.author', (p.author ?? p.authors ?? []).join(', ')],
        ['plugins.builder', [p.builder?.name, p.builder?.contact, p.builder?.website].filter(Boolean).join(' · ')],
        ['plugins.repo', p.repo],
        ['plugins.compatibility', Object.entries(p.compatibility ?? {}).map(([k, v]) => `${k} ${v}`).join(', ')],
        ['plugins.functionality', (p.functionality ?? []).join(', ')],
        ['plugins.buildDate', p.git_commit_or_build_date],
        ['plugins.runState', <RunStates plugin={p} />],
        ['plugins.description', p.description],
      ]} />
      <h3 class="section-title">{t('plugins.readme')}</h3>
      {p.readme ? <Markdown text={p.readme} test="plugin-readme" /> : <p class="muted" data-test="plugin-readme">{t('plugins.noReadme')}</p>}
      {has('pluginSchema') && <PluginConfig id={id} />}
    </section>
  );
}
