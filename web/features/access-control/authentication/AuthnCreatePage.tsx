/**
 * Create an authenticator: mechanism → backend → the kind's configuration form → `POST
 * /authentication` (appended to the end of the chain, api part2 §2.1). EMQX 5.5 has no dry-run
 * endpoint for authenticators, so the wizard offers no connection test.
 */
import { api } from '../../../lib/api.ts';
import { useDraftState } from '../../../lib/drafts.ts';
import { t } from '../../../lib/i18n.ts';
import { navigate } from '../../../lib/navigation.ts';
import { touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { ConfigForm } from '../ConfigForm.tsx';
import { confirmEnabling } from './refusals.ts';
import { ChoiceCards, StepButtons, Steps } from '../Wizard.tsx';
import { AUTHN_KINDS, BACKENDS, authnId } from './kinds.ts';
import './messages.ts';

const MECHANISMS = Object.keys(BACKENDS);

export default function AuthnCreatePage() {
  const existing = useRemote('authentication', (signal) => api.get<{ id: string; enable?: boolean }[]>('/authentication', { signal }));
  const taken = (id: string) => Boolean(existing.data?.some((a) => a.id === id));
  const [step, setStep] = useDraftState('authn-step', 0);
  const [mechanism, setMechanism] = useDraftState('authn-mechanism', 'password_based');
  const [backend, setBackend] = useDraftState('authn-backend', 'built_in_database');
  const backends = BACKENDS[mechanism];
  const id = authnId(mechanism, backends.length ? backend : undefined);
  const steps = ['authn.stepMechanism', 'authn.stepBackend', 'authn.stepConfig'];

  const pickMechanism = (value: string) => {
    setMechanism(value);
    setBackend(BACKENDS[value].find((b) => !taken(authnId(value, b))) ?? BACKENDS[value][0] ?? '');
  };
  const create = async (body: Record<string, unknown>) => {
    // A new built-in database has no users yet.
    if (!(await confirmEnabling(!existing.data?.some((a) => a.enable !== false), backend === 'built_in_database' && backends.length > 0))) return;
    await api.post('/authentication', { mechanism, ...(backends.length ? { backend } : {}), ...body, enable: true });
    toast(t('authn.created'));
    touch('authentication');
    await navigate('/authentication', { force: true });
  };

  return (
    <section class="wizard" data-test="authn-create-page">
      <header class="page-head"><h2>{t('authn.createTitle')}</h2></header>
      <Steps steps={steps} current={step} />
      {step === 0 && (
        <>
          <ChoiceCards name="mechanism" value={mechanism} onChange={pickMechanism} disabledNote="authn.exists"
            choices={MECHANISMS.map((m) => ({ value: m, label: `authn.mech.${m}`, help: `authn.mechanismHelp.${m}`, disabled: BACKENDS[m].length === 0 && taken(m) }))} />
          <StepButtons next={() => setStep(backends.length ? 1 : 2)} nextDisabled={!backends.length && taken(mechanism)} />
        </>
      )}
      {step === 1 && (
        <>
          <ChoiceCards name="backend" value={backend} onChange={setBackend} disabledNote="authn.exists"
            choices={backends.map((b) => ({ value: b, label: `access.kind.${b}`, disabled: taken(authnId(mechanism, b)) }))} />
          <StepButtons back={() => setStep(0)} next={() => setStep(2)} nextDisabled={taken(id)} />
        </>
      )}
      {step === 2 && (
        <article class="config-form">
          <h3 class="section-title">{t(`authn.mech.${mechanism}`)}{backends.length ? ` · ${t(`access.kind.${backend}`)}` : ''}</h3>
          <ConfigForm key={id} kind={AUTHN_KINDS[id]} config={AUTHN_KINDS[id].defaults} submitText={t('common.create')} test="authn-config-form" draft={`authn-${id}`}
            onSubmit={create} onCancel={() => setStep(backends.length ? 1 : 0)} />
        </article>
      )}
    </section>
  );
}
