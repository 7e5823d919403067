/**
 * One tab per test-client connection with its state, a close button on the extra ones (asking
 * first, since closing disconnects) and a button to open another (at most 6 besides the default).
 */
import { useSnapshot } from 'valtio';
import { confirm } from '../../../lib/confirm.ts';
import { t } from '../../../lib/i18n.ts';
import { Icon } from '../../../ui/Icon.tsx';
import { addConnection, removeConnection, selectConnection, wsClient } from './store.ts';

export function ConnectionTabs() {
  const snap = useSnapshot(wsClient);
  const close = async (id: string, n: number) => {
    if (await confirm(t('websocket.confirmRemove', { n }), { danger: true })) removeConnection(id);
  };
  return (
    <div class="tabs ws-tabs" role="tablist" data-test="ws-tabs">
      {snap.connections.map((c) => (
        <span class="ws-tab-item" key={c.id}>
          <button type="button" role="tab" aria-selected={c.id === snap.active} class={c.id === snap.active ? 'tab active' : 'tab'}
            data-test="ws-tab" data-state={c.status} onClick={() => selectConnection(c.id)}>
            <span class={`ws-dot ws-dot-${c.status}`} aria-hidden="true" />
            {t('websocket.connection', { n: c.n })}
          </button>
          {c.n !== 1 && (
            <button type="button" class="icon-button" aria-label={t('websocket.removeConnection', { n: c.n })} data-test="ws-tab-close"
              onClick={() => void close(c.id, c.n)}><Icon name="close" size={14} /></button>
          )}
        </span>
      ))}
      <button type="button" class="tab" aria-label={t('websocket.newConnection')} title={t('websocket.newConnection')} data-test="ws-tab-add"
        onClick={() => addConnection()}><Icon name="plus" size={16} /></button>
    </div>
  );
}
