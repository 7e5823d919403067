/** Webhooks: the joined connector + action + rule triples (emqx-api-part2 §7), toggled and deleted as one. */
import { canWrite } from '../../../lib/broker.ts';
import { t } from '../../../lib/i18n.ts';
import { perform } from '../../../lib/resources.ts';
import type { ResourceDecl } from '../../../ui/resource.ts';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { BridgeStatus } from '../connectors/BridgeCells.tsx';
import { deleteWebhook, listWebhooks, setEnabled, type Webhook } from './webhooks.ts';
import './messages.ts';

function Switch({ w }: { w: Webhook }) {
  const toggle = (enable: boolean) => perform({
    resource: 'webhook', run: () => setEnabled(w, enable), confirm: enable ? undefined : 'webhook.confirmDisable',
    params: { key: w.name }, success: enable ? 'connectors.enabledToast' : 'connectors.disabledToast',
  });
  return <input type="checkbox" role="switch" checked={w.enable} disabled={!canWrite()} aria-label={t('webhook.enable')} data-test="webhook-enable"
    onClick={(e) => (e.preventDefault(), void toggle(!w.enable))} />;
}

export const webhook: ResourceDecl<Webhook> = {
  name: 'webhook',
  title: 'integration.webhook',
  rowKey: (w) => w.name,
  list: async (query, signal) => {
    const all = await listWebhooks(signal);
    const page = Math.max(1, Number(query.page) || 1);
    const limit = Number(query.limit) || 20;
    return { rows: all.slice((page - 1) * limit, page * limit), meta: { page, limit, count: all.length } };
  },
  empty: 'webhook.empty',
  tools: [{ key: 'new', label: 'common.create', href: '/webhook/create', run: async () => undefined }],
  columns: [
    { key: 'name', title: 'webhook.name', link: (w) => `/webhook/${encodeURIComponent(w.name)}` },
    { key: 'url', title: 'webhook.url', text: (w) => String(w.connector.url ?? '') },
    { key: 'triggers', title: 'webhook.triggerList', optional: true, text: (w) => (w.rule.from ?? []).join(', ') },
    { key: 'status', title: 'webhook.status', text: (w) => <BridgeStatus row={{ ...w.action, enable: w.enable }} /> },
    { key: 'enable', title: 'webhook.enable', text: (w) => <Switch w={w} /> },
  ],
  actions: [{ key: 'delete', label: 'common.delete', danger: true, confirm: 'webhook.confirmDelete', success: 'webhook.deleted', run: deleteWebhook }],
};

export default function WebhookPage() {
  return <ResourcePage decl={webhook} />;
}
