/** The settings tab: the gateway's basic config (`PUT /gateways/{name}` without listeners and authentication). */
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { touch } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { Form } from '../../../ui/Form.tsx';
import { basicBody, basicValues } from './config.ts';
import type { GatewayKind } from './kinds.ts';

export function GatewaySettings({ name, kind, config }: { name: string; kind: GatewayKind; config: Record<string, unknown> }) {
  const initial = basicValues(kind, config);
  const save = async (values: Record<string, unknown>) => {
    await api.put(`/gateways/${name}`, basicBody(kind, values));
    toast(t('gateway.saved'));
    touch('gateways');
  };
  return (
    <article class="settings-form">
      <Form key={JSON.stringify(initial)} fields={kind.fields} initial={initial} onSubmit={save} test="gateway-settings-form" />
    </article>
  );
}
