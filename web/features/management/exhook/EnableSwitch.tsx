/** The enable switch of an ExHook server: `PUT /exhooks/{name}` with the whole config; disabling asks first. */
import { api } from '../../../lib/api.ts';
import { EnableSwitch as Switch } from '../../../ui/EnableSwitch.tsx';
import { configOf, exhookPath, type Exhook } from './exhook.tsx';
import './messages.ts';

export function EnableSwitch({ hook }: { hook: Exhook }) {
  return (
    <Switch enabled={hook.enable} resource="exhooks" name={hook.name} label="exhook.enable" test="exhooks-enable"
      set={(enable) => api.put(exhookPath(hook.name), { ...configOf(hook), enable })} confirmDisable="exhook.confirmDisable"
      toasts={['exhook.enabled', 'exhook.disabled']} />
  );
}
