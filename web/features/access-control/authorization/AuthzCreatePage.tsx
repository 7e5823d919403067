/**
 * Create an authorization source: type → the type's configuration form → `POST
 * /authorization/sources` (204; the new source goes to the front of the chain, api part2 §3.1).
 */
import { api } from '../../../lib/api.ts';
import { useDraftState } from '../../../lib/drafts.ts';
import { t } from '../../../lib/i18n.ts';
import { navigate } from '../../../lib/navigation.ts';
import { touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { ConfigForm } from '../ConfigForm.tsx';
import { ChoiceCards, StepButtons, Steps } from '../Wizard.tsx';
import { AUTHZ_KINDS, AUTHZ_TYPES } from './kinds.ts';
import './messages.ts';

export default function AuthzCreatePage() {
  const existing = useRemote('authorization', (signal) => api.get<{ sources: { type: string }[] }>('/authorization/sources', { signal }));
  const taken = (type: string) => Boolean(existing.data?.sources.some((s) => s.type === type));
  const [step, setStep] = useDraftState('authz-step', 0);
  const [type, setType] = useDraftState('authz-type', '');
  const chosen = type || AUTHZ_TYPES.find((x) => !taken(x)) || '';

  const create = async (body: Record<string, unknown>) => {
    await api.post('/authorization/sources', { type: chosen, ...body, enable: true });
    toast(t('authz.created'));
    touch('authorization');
    await navigate('/authorization', { force: true });
  };

  return (
    <section class="wizard" data-test="authz-create-page">
      <header class="page-head"><h2>{t('accessControl.authzCreate')}</h2></header>
      <Steps steps={['authz.stepType', 'authn.stepConfig']} current={step} />
      {step === 0 && (
        <>
          <ChoiceCards name="type" value={chosen} onChange={setType} disabledNote="authn.exists"
            choices={AUTHZ_TYPES.map((x) => ({ value: x, label: `access.kind.${x}`, help: `authz.typeHelp.${x}`, disabled: taken(x) }))} />
          <StepButtons next={() => setStep(1)} nextDisabled={!chosen || taken(chosen)} />
        </>
      )}
      {step === 1 && (
        <article class="config-form">
          <h3 class="section-title">{t(`access.kind.${chosen}`)}</h3>
          <ConfigForm key={chosen} kind={AUTHZ_KINDS[chosen]} config={AUTHZ_KINDS[chosen].defaults} submitText={t('common.create')} test="authz-config-form" draft={`authz-${chosen}`}
            onSubmit={create} onCancel={() => setStep(0)} />
        </article>
      )}
    </section>
  );
}
