/**
 * The gateway set-up wizard: basic config of its kind, listeners, authentication, then one
 * `PUT /gateways/{name}` (which loads an unloaded gateway; listeners as the array EMQX's GET
 * returns and `emqx_gateway_conf` converts back). A loaded gateway is not set up twice.
 */
import { useState } from 'react';
import { Link } from 'wouter';
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { navigate } from '../../../lib/navigation.ts';
import { touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { Form } from '../../../ui/Form.tsx';
import { Failed, Loading } from '../../../ui/States.tsx';
import { authBody, authFields, authValues } from './authForm.ts';
import { basicBody, basicValues } from './config.ts';
import { gatewayLabel, type Gateway } from './gateways.tsx';
import { kindOf, type GatewayKind } from './kinds.ts';
import { listenerBody, listenerFields, listenerValues, type Listener } from './listenerForm.ts';

const STEPS = ['gateway.stepBasic', 'gateway.stepListeners', 'gateway.stepAuth'];

function Listeners(props: { kind: GatewayKind; listeners: Listener[]; onChange: (next: Listener[]) => void; onNext: () => void }) {
  const [adding, setAdding] = useState(false);
  const [problem, setProblem] = useState('');
  const add = async (values: Record<string, unknown>) => {
    props.onChange([...props.listeners, listenerBody(values)]);
    setAdding(false);
  };
  return (
    <div data-test="gateway-wizard-listeners">
      <table class="striped">
        <thead><tr><th>{t('gateway.listenerName')}</th><th>{t('gateway.listenerType')}</th><th>{t('gateway.bind')}</th><th class="actions-col">{t('common.actions')}</th></tr></thead>
        <tbody>
          {props.listeners.map((l, i) => (
            <tr key={`${l.type}:${l.name}`} data-test="gateway-wizard-listener">
              <td>{l.name}</td><td>{l.type}</td><td>{String(l.bind)}</td>
              <td class="actions-col">
                <button type="button" class="link danger" data-test="gateway-wizard-remove" onClick={() => props.onChange(props.listeners.filter((_, j) => j !== i))}>
                  {t('gateway.removeListener')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {adding
        ? <Form fields={listenerFields(props.kind.listenerTypes, true)} initial={listenerValues({ type: props.kind.listenerTypes[0] })} submitText={t('gateway.addListener')}
            onSubmit={add} onCancel={() => setAdding(false)} test="gateway-listener-form" />
        : <button type="button" class="secondary outline" data-test="gateway-wizard-add" onClick={() => setAdding(true)}>{t('gateway.addListener')}</button>}
      <small class="field-error" role="alert">{problem}</small>
      <div class="form-actions">
        <button type="button" data-test="gateway-wizard-next" disabled={adding}
          onClick={() => (props.listeners.length ? (setProblem(''), props.onNext()) : setProblem(t('gateway.needListener')))}>
          {t('gateway.next')}
        </button>
      </div>
    </div>
  );
}

function Wizard({ name, kind }: { name: string; kind: GatewayKind }) {
  const [step, setStep] = useState(0);
  const [basic, setBasic] = useState(() => basicValues(kind, kind.defaults));
  const [listeners, setListeners] = useState<Listener[]>([{ ...kind.listener, enable: true, max_connections: 1024, max_conn_rate: 1000 }]);
  const finish = async (values: Record<string, unknown>) => {
    const authentication = authBody(values);
    await api.put(`/gateways/${name}`, { name, ...basicBody(kind, basic), enable: true, listeners, ...(authentication ? { authentication } : {}) });
    toast(t('gateway.created'));
    touch('gateways');
    await navigate('/gateway', { force: true });
  };
  return (
    <>
      <ol class="wizard-steps" data-test="gateway-steps">
        {STEPS.map((title, i) => (
          <li key={title} class={i === step ? 'active' : i < step ? 'done' : ''} aria-current={i === step ? 'step' : undefined}>
            {i < step ? <button type="button" class="link" data-test={`gateway-step-${i}`} onClick={() => setStep(i)}>{t(title)}</button> : t(title)}
          </li>
        ))}
      </ol>
      <article class="settings-form">
        {step === 0 && (
          <Form key="basic" fields={kind.fields} initial={basic} submitText={t('gateway.next')} test="gateway-basic-form"
            onSubmit={async (values) => (setBasic(values), setStep(1))} />
        )}
        {step === 1 && <Listeners kind={kind} listeners={listeners} onChange={setListeners} onNext={() => setStep(2)} />}
        {step === 2 && <Form key="auth" fields={authFields(kind, true)} initial={authValues(undefined, true)} submitText={t('gateway.createSubmit')} onSubmit={finish} test="gateway-auth-form" />}
      </article>
    </>
  );
}

export default function GatewayCreate({ name }: { name: string }) {
  const kind = kindOf(name);
  const remote = useRemote('gateways', (signal) => api.get<Gateway>(`/gateways/${name}`, { signal }), name);
  let body;
  if (!kind) body = <p class="state" data-test="gateway-unknown">{t('gateway.notLoaded')}</p>;
  else if (!remote.data) body = remote.error ? <Failed error={remote.error} retry={remote.reload} /> : <Loading />;
  else if (remote.data.status !== 'unloaded') {
    body = (
      <div class="state" data-test="gateway-already-loaded">
        <p>{t('gateway.alreadyLoaded')}</p>
        <Link href={`/gateway/detail/${name}/settings`}>{t('gateway.openDetail')}</Link>
      </div>
    );
  } else body = <Wizard name={name} kind={kind} />;
  return (
    <section data-test="gateway-create-page">
      <header class="page-head"><h2>{t('gateway.setup')} {gatewayLabel(name)}</h2></header>
      {body}
    </section>
  );
}
