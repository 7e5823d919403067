/**
 * /webhook/create and /webhook/:name: one form for the three objects — name, triggers, URL,
 * method, headers and body — written as connector, action and rule (emqx-api-part2 §7); an
 * existing webhook also shows what its action has sent.
 */
import { t } from '../../../lib/i18n.ts';
import { navigate } from '../../../lib/navigation.ts';
import { touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { json, namePattern, required } from '../../../lib/validators.ts';
import { Form } from '../../../ui/Form.tsx';
import type { FieldDecl } from '../../../ui/resource.ts';
import { Failed, Loading, NotFound } from '../../../ui/States.tsx';
import { WebhookMetrics } from './WebhookMetrics.tsx';
import { createWebhook, listWebhooks, updateWebhook, type Webhook, type WebhookValues } from './webhooks.ts';
import './messages.ts';

const METHODS = ['post', 'put', 'get', 'delete'].map((m) => ({ value: m, label: m.toUpperCase() }));

const fields = (create: boolean): FieldDecl[] => [
  { name: 'name', label: 'webhook.name', required: true, requiredMessage: 'validation.nameRequired', rules: [namePattern], disabled: !create },
  { name: 'triggers', label: 'webhook.triggers', kind: 'list', rules: [required()] },
  { name: 'url', label: 'webhook.url', required: true, placeholder: 'http://' },
  { name: 'method', label: 'webhook.method', kind: 'select', options: METHODS },
  { name: 'headers', label: 'webhook.headers', kind: 'code', rules: [json] },
  { name: 'body', label: 'webhook.body', kind: 'code', placeholder: '${payload}' },
  { name: 'description', label: 'webhook.description' },
];

const initial = (w?: Webhook) => ({
  name: w?.name ?? '',
  triggers: w?.rule.from ?? ['#'],
  url: w?.connector.url ?? 'http://',
  method: (w?.action.parameters as { method?: string } | undefined)?.method ?? 'post',
  headers: JSON.stringify(w?.connector.headers ?? { 'content-type': 'application/json' }, null, 2),
  body: (w?.action.parameters as { body?: string } | undefined)?.body ?? '',
  description: w?.rule.description ?? '',
});

const valuesOf = (v: Record<string, unknown>): WebhookValues => ({
  name: String(v.name), description: String(v.description ?? ''), triggers: (v.triggers as string[]).filter(Boolean),
  url: String(v.url), method: String(v.method), headers: v.headers ? JSON.parse(String(v.headers)) as Record<string, string> : {}, body: String(v.body ?? ''),
});

export default function WebhookEdit({ name }: { name?: string }) {
  const create = !name || name === 'create';
  const current = create ? undefined : decodeURIComponent(name);
  const remote = useRemote('webhook', async (signal) => (current ? (await listWebhooks(signal)).find((w) => w.name === current) ?? null : null), current ?? '');
  const save = async (values: Record<string, unknown>) => {
    if (remote.data) await updateWebhook(remote.data, valuesOf(values));
    else await createWebhook(valuesOf(values));
    toast(t(remote.data ? 'webhook.updated' : 'webhook.created'));
    touch('webhook');
    void navigate('/webhook', { force: true });
  };
  return (
    <section class="bridge-page" data-test={create ? 'webhook-create' : 'webhook-detail'}>
      <header class="page-head"><h2>{create ? t('integration.webhookCreate') : current}</h2></header>
      {remote.error && !remote.data ? <Failed error={remote.error} retry={remote.reload} />
        : remote.data === undefined ? <Loading />
          : !create && !remote.data ? <NotFound text={t('webhook.notFound', { name: current })} back="/webhook" backTitle="integration.webhook" />
            : <Form key={current ?? 'new'} test="webhook-form" draft="webhook" fields={fields(create)} initial={initial(remote.data ?? undefined)} onSubmit={save}
              submitText={t(create ? 'common.create' : 'common.save')} onCancel={() => void navigate('/webhook')} />}
      {remote.data && <WebhookMetrics action={remote.data.action} />}
    </section>
  );
}
