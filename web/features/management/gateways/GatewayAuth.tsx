/**
 * The authentication tab (§19.3): `GET /gateways/{name}/authentication` answers the authenticator
 * or 204 when there is none; the form creates (`POST`) or updates (`PUT`) it, and it can be removed.
 */
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { perform, touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { Form } from '../../../ui/Form.tsx';
import { Failed, Loading } from '../../../ui/States.tsx';
import { authBody, authFields, authValues } from './authForm.ts';
import type { GatewayKind } from './kinds.ts';

export function GatewayAuth({ name, kind }: { name: string; kind: GatewayKind }) {
  const path = `/gateways/${name}/authentication`;
  // A 204 parses as undefined: wrap it so "none" and "not loaded yet" differ.
  const remote = useRemote('gateway-auth', async (signal) => ({ config: await api.get<Record<string, unknown> | undefined>(path, { signal }) }), name);
  if (!remote.data) return remote.error ? <Failed error={remote.error} retry={remote.reload} /> : <Loading />;
  const config = remote.data.config;
  const save = async (values: Record<string, unknown>) => {
    const body = authBody(values);
    await (config ? api.put(path, body) : api.post(path, body));
    toast(t('gateway.authSaved'));
    touch('gateway-auth');
  };
  const remove = () => perform({ resource: 'gateway-auth', run: () => api.del(path), confirm: 'gateway.confirmRemoveAuth', danger: true, success: 'gateway.authDeleted' });
  return (
    <article class="settings-form" data-test="gateway-auth">
      {!config && <p class="muted" data-test="gateway-auth-none">{t('gateway.authNone')}</p>}
      <Form key={JSON.stringify(config ?? null)} fields={authFields(kind, false)} initial={authValues(config)} onSubmit={save} test="gateway-auth-form">
        {config && (
          <button type="button" class="link danger" data-test="gateway-auth-remove" onClick={remove}>{t('gateway.removeAuth')}</button>
        )}
      </Form>
    </article>
  );
}
