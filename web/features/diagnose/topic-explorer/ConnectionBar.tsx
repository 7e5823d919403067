/**
 * Where the explorer connects (address from /listeners, credentials when the broker asks for
 * them), what it subscribes to, and connect, disconnect, pause, resume and clear, with the
 * connection state always in view.
 */
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { confirm } from '../../../lib/confirm.ts';
import { formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { CheckInput, NumberInput, QOS_OPTIONS, SelectInput, TextInput } from '../websocket/inputs.tsx';
import { brokerUrl, type Settings } from '../websocket/settings.ts';
import { StateTag } from '../websocket/StateTag.tsx';
import { clearTree, connect, disconnect, explorer, loadAddress, setPaused, warmClient } from './store.ts';

const WARM_AFTER_MS = 800;

export function ConnectionBar() {
  const snap = useSnapshot(explorer, { sync: true });
  const s = snap.settings;
  const locked = snap.status !== 'disconnected';
  useEffect(() => {
    void loadAddress();
    // mqtt.js is loaded once the operator stays on the screen (not on a passing visit) or points at Connect.
    const timer = setTimeout(warmClient, WARM_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  const field = <K extends keyof Settings>(key: K) => ({
    name: key, label: `websocket.${key}`, value: s[key], error: snap.errors[key], disabled: locked,
    onChange: (v: Settings[K]) => void (explorer.settings[key] = v),
  });
  const clear = async () => {
    if (await confirm(t('explorer.confirmClear'), { danger: true })) clearTree();
  };

  return (
    <article class="ws-card" data-test="explorer-connection">
      <header class="panel-head">
        <h3>{t('explorer.connection')}</h3>
        <code class="muted" data-test="explorer-url">{brokerUrl(s as Settings)}</code>
        <StateTag status={snap.status} />
      </header>
      <fieldset class="ws-grid-4" disabled={locked}>
        <SelectInput {...field('protocol')} options={[{ value: 'ws', label: 'ws://' }, { value: 'wss', label: 'wss://' }]} />
        <TextInput {...field('host')} help={snap.addressFrom === 'listeners' ? 'explorer.addressFromListener' : undefined} />
        <NumberInput {...field('port')} />
        <TextInput {...field('path')} />
        <TextInput name="filter" label="explorer.filter" value={snap.filter} error={snap.errors.filter} disabled={locked} onChange={(v) => (explorer.filter = v)} />
        <SelectInput name="explorerQos" label="explorer.qos" value={snap.qos} options={QOS_OPTIONS} disabled={locked} onChange={(v) => (explorer.qos = v)} />
        <div class="ws-field ws-switches">
          <CheckInput name="sys" label="explorer.sys" checked={snap.sys} disabled={locked} onChange={(v) => (explorer.sys = v)} />
        </div>
      </fieldset>
      <details class="ws-will" open={snap.needsAuth}>
        <summary>{t('explorer.credentials')}</summary>
        {snap.needsAuth && <p class="field-error" data-test="explorer-needs-auth">{t('explorer.needsAuth')}</p>}
        <fieldset class="ws-grid-4" disabled={locked}>
          <TextInput {...field('username')} label="login.username" />
          <TextInput {...field('password')} label="login.password" type="password" />
        </fieldset>
      </details>
      <div class="ws-actions">
        {snap.status === 'disconnected'
          ? <button type="button" data-test="explorer-connect" onPointerEnter={warmClient} onFocus={warmClient} onClick={() => void connect()}>{t('websocket.connect')}</button>
          : <button type="button" class="secondary" disabled={snap.status === 'disconnecting'} data-test="explorer-disconnect" onClick={disconnect}>
            {t(snap.status === 'connected' ? 'websocket.disconnect' : 'websocket.cancelConnect')}</button>}
        <button type="button" class="secondary outline" aria-pressed={snap.paused} data-test="explorer-pause" onClick={() => setPaused(!snap.paused)}>
          {t(snap.paused ? 'explorer.resume' : 'explorer.pause')}</button>
        <button type="button" class="secondary outline" disabled={snap.stats.messages === 0} data-test="explorer-clear" onClick={() => void clear()}>{t('explorer.clear')}</button>
        <span class="muted" data-test="explorer-summary">
          {t('explorer.summary', { topics: formatNumber(snap.stats.topics), messages: formatNumber(snap.stats.messages), rate: formatNumber(snap.rate) })}
        </span>
        {snap.paused && <span class="tag tag-warn" data-test="explorer-paused">{t('explorer.paused', { count: formatNumber(snap.skipped) })}</span>}
        {snap.error && <span class="field-error" role="alert" data-test="explorer-error">{snap.error}</span>}
      </div>
      {(snap.stats.dropped > 0 || snap.stats.tooLarge > 0 || snap.stats.untracked > 0) && (
        <p class="muted note" data-test="explorer-limits">
          {[
            snap.stats.dropped > 0 && t('explorer.dropped', { count: formatNumber(snap.stats.dropped) }),
            snap.stats.tooLarge > 0 && t('explorer.tooLarge', { count: formatNumber(snap.stats.tooLarge) }),
            snap.stats.untracked > 0 && t('explorer.untracked', { count: formatNumber(snap.stats.untracked) }),
          ].filter(Boolean).join(' · ')}
        </p>
      )}
    </article>
  );
}
