/** The enable switch of a rule: `PUT /rules/{id}` with `{enable}` only (the broker merges it); disabling asks first. */
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { perform } from '../../../lib/resources.ts';
import { rulePath, type Rule } from './rules.tsx';
import './messages.ts';

export function EnableSwitch({ rule }: { rule: Rule }) {
  const toggle = (enable: boolean) => perform({
    resource: 'rules',
    run: () => api.put(rulePath(rule.id), { enable }),
    confirm: enable ? undefined : 'rules.confirmDisable',
    params: { key: rule.id },
    success: enable ? 'rules.enabledToast' : 'rules.disabledToast',
  });
  return (
    <input type="checkbox" role="switch" checked={rule.enable} aria-label={t('rules.enable')} data-test="rules-enable"
      onClick={(e) => (e.preventDefault(), void toggle(!rule.enable))} />
  );
}
