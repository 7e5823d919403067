/** The enable switch of an ExHook server: `PUT /exhooks/{name}` with the whole config; disabling asks first. */
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { perform } from '../../../lib/resources.ts';
import { configOf, exhookPath, type Exhook } from './exhook.tsx';
import './messages.ts';

export function EnableSwitch({ hook }: { hook: Exhook }) {
  const toggle = (enable: boolean) => perform({
    resource: 'exhooks',
    run: () => api.put(exhookPath(hook.name), { ...configOf(hook), enable }),
    confirm: enable ? undefined : 'exhook.confirmDisable',
    params: { key: hook.name },
    success: enable ? 'exhook.enabled' : 'exhook.disabled',
  });
  return (
    <input type="checkbox" role="switch" checked={hook.enable} aria-label={t('exhook.enable')} data-test="exhooks-enable"
      onClick={(e) => (e.preventDefault(), void toggle(!hook.enable))} />
  );
}
