/**
 * One ExHook server (`GET /exhooks/{name}`, refreshed while visible): status and metrics per node,
 * the hooks it registered with their metrics (`GET /exhooks/{name}/hooks`), and its settings form.
 */
import { api, isNotFound } from '../../../lib/api.ts';
import { formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { useQuery } from '../../../lib/query.ts';
import { touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { Descriptions } from '../../../ui/Descriptions.tsx';
import { Form } from '../../../ui/Form.tsx';
import { Failed, Loading, NotFound } from '../../../ui/States.tsx';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import { Tabs } from '../../../ui/Tabs.tsx';
import { EnableSwitch } from './EnableSwitch.tsx';
import { exhookPath, statusOf, type Exhook, type Metrics } from './exhook.tsx';
import { exhookFields, toBody, toValues } from './exhookForm.ts';

interface Hook {
  name: string;
  params?: Record<string, unknown>;
  metrics?: Metrics;
  node_metrics?: { node: string; metrics: Metrics }[];
}

const METRICS = ['succeed', 'failed', 'rate', 'max_rate'] as const;
const HEADS = ['exhook.succeed', 'exhook.failed', 'exhook.rate', 'exhook.maxRate'];
const numbers = (m?: Metrics) => METRICS.map((k) => <td key={k} class="num">{formatNumber(m?.[k] ?? 0)}</td>);

function Nodes({ hook }: { hook: Exhook }) {
  const nodes = hook.node_status ?? [];
  return (
    <table class="striped" data-test="exhook-nodes">
      <thead><tr><th>{t('exhook.node')}</th><th>{t('exhook.status')}</th>{HEADS.map((h) => <th key={h} class="num">{t(h)}</th>)}</tr></thead>
      <tbody>
        {nodes.map((n) => (
          <tr key={n.node} data-test="exhook-node">
            <td>{n.node}</td><td><StatusTag status={n.status} /></td>{numbers(hook.node_metrics?.find((m) => m.node === n.node)?.metrics)}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Hooks({ name }: { name: string }) {
  const hooks = useRemote('exhooks', (signal) => api.get<Hook[]>(exhookPath(name, '/hooks'), { signal }), `${name}/hooks`, 5000);
  if (!hooks.data) return hooks.error ? <Failed error={hooks.error} retry={hooks.reload} /> : <Loading />;
  if (hooks.data.length === 0) return <p class="muted" data-test="exhook-no-hooks">{t('exhook.noHooks')}</p>;
  return (
    <table class="striped" data-test="exhook-hooks">
      <thead><tr><th>{t('exhook.name')}</th><th>{t('exhook.params')}</th>{HEADS.map((h) => <th key={h} class="num">{t(h)}</th>)}</tr></thead>
      <tbody>
        {hooks.data.map((h) => (
          <tr key={h.name} data-test="exhook-hook" data-key={h.name}>
            <td>
              <code>{h.name}</code>
              {h.node_metrics?.length ? (
                <details class="hook-nodes" data-test="exhook-hook-nodes">
                  <summary>{t('exhook.nodes')}</summary>
                  {h.node_metrics.map((n) => (
                    <div key={n.node} class="muted nowrap">{n.node}: {t('exhook.succeed')} {formatNumber(n.metrics.succeed)}, {t('exhook.failed')} {formatNumber(n.metrics.failed)}</div>
                  ))}
                </details>
              ) : null}
            </td>
            <td class="muted">{h.params && Object.keys(h.params).length ? JSON.stringify(h.params) : '—'}</td>
            {numbers(h.metrics)}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function ExhookDetail({ name: raw }: { name: string }) {
  const name = decodeURIComponent(raw);
  const [query, setQuery] = useQuery();
  const tab = query.tab === 'settings' ? 'settings' : 'overview';
  const remote = useRemote('exhooks', (signal) => api.get<Exhook>(exhookPath(name), { signal }), name, tab === 'overview' ? 5000 : 0);
  const error = remote.error;
  // EMQX answers an unknown server with 404 and code BAD_REQUEST (api notes §20 quirk).
  if (isNotFound(error)) {
    return <NotFound text={t('exhook.notFound')} back="/exhook" backTitle="management.exhook" test="exhook-not-found" />;
  }
  const hook = remote.data;
  if (!hook) return error ? <Failed error={error} retry={remote.reload} /> : <Loading />;
  const save = async (values: Record<string, unknown>) => {
    await api.put(exhookPath(name), toBody(values));
    toast(t('exhook.saved'));
    touch('exhooks');
  };
  return (
    <section data-test="exhook-detail">
      <header class="page-head">
        <h2>{hook.name} <StatusTag status={statusOf(hook)} test="exhook-status" /></h2>
        <label class="toolbar">{t('exhook.enable')} <EnableSwitch hook={hook} /></label>
      </header>
      <Tabs tabs={[{ key: 'overview', title: 'exhook.overview' }, { key: 'settings', title: 'exhook.settings' }]} active={tab}
        onChange={(key) => setQuery({ tab: key === 'overview' ? undefined : key })} />
      {tab === 'overview' ? (
        <>
          <Descriptions test="exhook-metrics" items={[
            ['exhook.url', <code>{hook.url}</code>],
            ['exhook.succeed', formatNumber(hook.metrics?.succeed ?? 0)],
            ['exhook.failed', formatNumber(hook.metrics?.failed ?? 0)],
            ['exhook.rate', formatNumber(hook.metrics?.rate ?? 0)],
            ['exhook.maxRate', formatNumber(hook.metrics?.max_rate ?? 0)],
          ]} />
          <h3 class="section-title">{t('exhook.nodes')}</h3>
          <Nodes hook={hook} />
          <h3 class="section-title">{t('exhook.registeredHooks')}</h3>
          <Hooks name={name} />
        </>
      ) : (
        <article class="settings-form">
          <Form key={JSON.stringify(hook)} fields={exhookFields(false)} initial={toValues(hook)} onSubmit={save} test="exhook-form" />
        </article>
      )}
    </section>
  );
}
