/**
 * The add-topic monitor of one connection: for each watched topic (or filter) the incoming,
 * outgoing and dropped message counts with their rates in messages per second. Adding a topic
 * that is already watched jumps to it.
 */
import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { Icon } from '../../../ui/Icon.tsx';
import { TextInput } from './inputs.tsx';
import type { Direction } from './monitors.ts';
import { addMonitor, connectionOf, removeMonitor } from './store.ts';

const DIRECTIONS: Direction[] = ['incoming', 'outgoing', 'dropped'];

export function TopicMonitor({ id }: { id: string }) {
  const conn = connectionOf(id);
  const snap = useSnapshot(conn, { sync: true });
  const active = snap.monitors.find((m) => m.topic === snap.activeMonitor);
  const tabs = useRef<HTMLDivElement>(null);
  // Bring the chosen topic's tab into view, also when adding one that already existed.
  useEffect(() => tabs.current?.querySelector<HTMLElement>('[aria-selected=true]')?.scrollIntoView?.({ block: 'nearest' }), [snap.activeMonitor]);
  return (
    <article class="ws-card" data-test="ws-monitor">
      <h3>{t('websocket.monitor')}</h3>
      <form class="ws-inline-form" onSubmit={(e) => (e.preventDefault(), addMonitor(id))}>
        <TextInput name="monitorTopic" label="websocket.topic" value={snap.monitorForm.topic} error={snap.monitorForm.error} placeholder="t/#"
          onChange={(v) => (conn.monitorForm.topic = v)} />
        <button type="submit" data-test="ws-monitor-add">{t('websocket.addTopic')}</button>
      </form>
      {snap.monitors.length === 0
        ? <p class="muted">{t('websocket.noMonitors')}</p>
        : (
          <>
            <div class="tabs ws-monitor-tabs" role="tablist" ref={tabs}>
              {snap.monitors.map((m) => (
                <span class="ws-tab-item" key={m.topic}>
                  <button type="button" role="tab" aria-selected={m.topic === snap.activeMonitor} class={m.topic === snap.activeMonitor ? 'tab active' : 'tab'}
                    data-test="ws-monitor-tab" data-topic={m.topic} onClick={() => (conn.activeMonitor = m.topic)}>{m.topic}</button>
                  <button type="button" class="icon-button" aria-label={t('websocket.removeTopic')} data-test="ws-monitor-remove"
                    onClick={() => removeMonitor(id, m.topic)}><Icon name="close" size={14} /></button>
                </span>
              ))}
            </div>
            {active && (
              <table class="compact ws-monitor-table" data-test="ws-monitor-table">
                <thead><tr><th /><th class="num">{t('websocket.count')}</th><th class="num">{t('websocket.rate')}</th></tr></thead>
                <tbody>
                  {DIRECTIONS.map((d) => (
                    <tr key={d} data-test={`ws-monitor-${d}`}>
                      <th scope="row">{t(`websocket.${d}`)}</th>
                      <td class="num" data-test="ws-monitor-count">{formatNumber(active[d])}</td>
                      <td class="num" data-test="ws-monitor-rate">{formatNumber(active.rates[d])}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <p class="muted note">{t('websocket.droppedHelp')}</p>
          </>
        )}
    </article>
  );
}
