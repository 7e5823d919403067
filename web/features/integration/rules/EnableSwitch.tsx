/** The enable switch of a rule: `PUT /rules/{id}` with `{enable}` only (the broker merges it); disabling asks first. */
import { api } from '../../../lib/api.ts';
import { EnableSwitch as Switch } from '../../../ui/EnableSwitch.tsx';
import { rulePath, type Rule } from './rules.tsx';
import './messages.ts';

export function EnableSwitch({ rule }: { rule: Rule }) {
  return (
    <Switch enabled={rule.enable} resource="rules" name={rule.id} label="rules.enable" test="rules-enable"
      set={(enable) => api.put(rulePath(rule.id), { enable })} confirmDisable="rules.confirmDisable"
      toasts={['rules.enabledToast', 'rules.disabledToast']} />
  );
}
