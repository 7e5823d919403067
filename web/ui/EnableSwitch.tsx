/**
 * The enable switch of a row or a detail page: flipping it runs `set(next)` through `perform`
 * (confirmation before disabling when `confirmDisable` is given, toast, reload of `resource`).
 * The box keeps showing the stored state until the reload says otherwise; a read-only user sees it disabled.
 * Example: `<EnableSwitch enabled={r.enable} resource="rules" name={r.id} label="rules.enable" test="rules-enable" set={(enable) => api.put(path, { enable })} toasts={['rules.enabledToast', 'rules.disabledToast']} />`.
 */
import { canWrite } from '../lib/broker.ts';
import { t } from '../lib/i18n.ts';
import { perform } from '../lib/resources.ts';

export function EnableSwitch(props: {
  enabled: boolean;
  /** The resource reloaded afterwards (`touch`). */
  resource: string;
  /** The row's key, for the confirmation text's `{{key}}`. */
  name: string;
  /** i18n key of the accessible label. */
  label: string;
  test: string;
  set: (enable: boolean) => Promise<unknown>;
  /** i18n key of the question asked before disabling. */
  confirmDisable?: string;
  /** i18n keys of the toasts after enabling and after disabling. */
  toasts: [string, string];
}) {
  const toggle = (enable: boolean) => perform({
    resource: props.resource,
    run: () => props.set(enable),
    confirm: enable ? undefined : props.confirmDisable,
    params: { key: props.name },
    success: enable ? props.toasts[0] : props.toasts[1],
  });
  return (
    <input type="checkbox" role="switch" checked={props.enabled} aria-label={t(props.label)} data-test={props.test} disabled={!canWrite()}
      onClick={(e) => (e.preventDefault(), void toggle(!props.enabled))} />
  );
}
