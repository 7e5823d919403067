/**
 * The settings of one test-client connection (where to connect, who as, protocol version, session,
 * will and MQTT 5 properties) with connect, cancel and disconnect. Settings are locked while a
 * connection exists; the last refusal or loss is shown in words under the buttons.
 */
import { useSnapshot } from 'valtio';
import { t } from '../../../lib/i18n.ts';
import { Icon } from '../../../ui/Icon.tsx';
import { CheckInput, NumberInput, QOS_OPTIONS, SelectInput, TextInput } from './inputs.tsx';
import { cancelConnect, connect, disconnect } from './lifecycle.ts';
import { PROTOCOL_VERSIONS, randomClientId, WS_PORTS, type Settings } from './settings.ts';
import { connectionOf } from './store.ts';
import { StateTag } from './StateTag.tsx';

export function ConnectionForm({ id }: { id: string }) {
  const conn = connectionOf(id);
  const snap = useSnapshot(conn, { sync: true });
  const s = snap.settings;
  const locked = snap.status !== 'disconnected';
  const set = <K extends keyof Settings>(key: K) => (v: Settings[K]) => {
    conn.settings[key] = v;
  };
  const common = <K extends keyof Settings>(key: K) => ({ name: key, label: `websocket.${key}`, value: s[key], error: snap.errors[key], disabled: locked, onChange: set(key) });
  const ports = [...new Set([location.port ? Number(location.port) : undefined, WS_PORTS[s.protocol]].filter(Boolean))];

  return (
    <article class="ws-card" data-test="ws-connection">
      <header class="panel-head">
        <h3>{t('websocket.settings')}</h3>
        <StateTag status={snap.status} />
      </header>
      <fieldset class="ws-grid-4" disabled={locked}>
        <SelectInput {...common('protocol')} options={[{ value: 'ws', label: 'ws://' }, { value: 'wss', label: 'wss://' }]} />
        <TextInput {...common('host')} />
        <NumberInput {...common('port')} list={`${id}-ports`} />
        <TextInput {...common('path')} help="websocket.pathHelp" />
        <TextInput {...common('clientId')}>
          <button type="button" class="secondary outline ws-icon-button" aria-label={t('websocket.randomId')} title={t('websocket.randomId')}
            data-test="ws-random-id" disabled={locked} onClick={() => (conn.settings.clientId = randomClientId())}><Icon name="refresh" /></button>
        </TextInput>
        <TextInput {...common('username')} label="login.username" />
        <TextInput {...common('password')} label="login.password" type="password" />
        <SelectInput {...common('protocolVersion')} options={PROTOCOL_VERSIONS} />
        <NumberInput {...common('keepalive')} />
        <div class="ws-field ws-switches">
          <CheckInput {...common('clean')} checked={s.clean} />
          {s.protocolVersion === 5 && <CheckInput {...common('neverExpire')} checked={s.neverExpire} />}
        </div>
        {s.protocolVersion === 5 && (
          <>
            <NumberInput {...common('sessionExpiry')} value={s.neverExpire ? 4294967295 : s.sessionExpiry} disabled={locked || s.neverExpire} />
            <NumberInput {...common('receiveMaximum')} />
            <NumberInput {...common('topicAliasMaximum')} />
          </>
        )}
      </fieldset>
      <datalist id={`${id}-ports`}>{ports.map((p) => <option key={p} value={String(p)} />)}</datalist>
      <details class="ws-will">
        <summary>{t('websocket.will')}</summary>
        <fieldset class="ws-grid-4" disabled={locked}>
          <TextInput {...common('willTopic')} help="websocket.willHelp" />
          <SelectInput {...common('willQos')} options={QOS_OPTIONS} />
          <div class="ws-field ws-switches"><CheckInput {...common('willRetain')} label="websocket.retain" checked={s.willRetain} /></div>
          <TextInput {...common('willPayload')} />
        </fieldset>
      </details>
      <div class="ws-actions">
        {snap.status === 'disconnected' && <button type="button" data-test="ws-connect" onClick={() => void connect(id)}>{t('websocket.connect')}</button>}
        {(snap.status === 'connecting' || snap.status === 'reconnecting') && (
          <button type="button" class="secondary" data-test="ws-cancel" onClick={() => cancelConnect(id)}>{t('websocket.cancelConnect')}</button>
        )}
        {(snap.status === 'connected' || snap.status === 'disconnecting') && (
          <button type="button" class="secondary" disabled={snap.status === 'disconnecting'} data-test="ws-disconnect" onClick={() => disconnect(id)}>{t('websocket.disconnect')}</button>
        )}
        {snap.error && <span class="field-error" role="alert" data-test="ws-error">{snap.error}</span>}
      </div>
    </article>
  );
}
