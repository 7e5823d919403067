/**
 * The received or published messages of one connection, newest first, virtualised: only the rows
 * in the visible window (plus a few) are rendered, so ten thousand messages scroll smoothly.
 * Each row shows topic, QoS, retain flag, its MQTT 5 properties in one line, time and the payload
 * in the chosen encoding; the full message opens in a drawer with the kit's payload viewer, which
 * refuses payloads over 1 MB.
 */
import { memo, useState } from 'react';
import { useSnapshot } from 'valtio';
import { confirm } from '../../../lib/confirm.ts';
import { formatBytes, formatDateTime, formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { Descriptions } from '../../../ui/Descriptions.tsx';
import { Drawer } from '../../../ui/Drawer.tsx';
import { PayloadView } from '../../../ui/PayloadView.tsx';
import { Empty } from '../../../ui/States.tsx';
import { SelectInput } from './inputs.tsx';
import { clearMessages } from './messaging.ts';
import { LOG_CAPACITY, type LoggedMessage } from './messageLog.ts';
import { rowText, toBase64, type Encoding } from './payload.ts';
import { encodingOptions } from './PublishPanel.tsx';
import { connectionOf, logsOf } from './store.ts';

/** Row and viewport heights in pixels; rows have a fixed height so positions need no measuring. */
export const ROW_PX = 64;
export const VIEW_PX = 448;
const OVERSCAN = 4;

const texts = new WeakMap<LoggedMessage, Partial<Record<Encoding, string | null>>>();
function cachedText(message: LoggedMessage, encoding: Encoding) {
  let cache = texts.get(message);
  if (!cache) texts.set(message, (cache = {}));
  if (!(encoding in cache)) cache[encoding] = rowText(message.payload, message.size, encoding);
  return cache[encoding]!;
}

const Row = memo(function Row(props: { message: LoggedMessage; encoding: Encoding; top: number; onView: (m: LoggedMessage) => void }) {
  const { message: m, encoding } = props;
  const text = cachedText(m, encoding);
  // Properties take the room the topic leaves; the full text is in the title and the drawer.
  const shown = m.props?.map(([name, value]) => `${t(`websocket.${name}`)}: ${value}`).join(' · ');
  return (
    <li class="ws-row" style={{ top: `${props.top}px`, height: `${ROW_PX}px` }} data-test="ws-message">
      <div class="ws-row-head">
        <code class="ws-topic" data-test="ws-message-topic">{m.topic}</code>
        <span class="tag tag-off" data-test="ws-message-qos">QoS {m.qos}</span>
        {m.retain && <span class="tag tag-warn" data-test="ws-message-retain">{t('websocket.retain')}</span>}
        {shown && <span class="ws-topic muted" style={{ flex: '1 1 0' }} title={shown} data-test="ws-message-props">{shown}</span>}
        <time class="muted">{formatDateTime(m.time)}</time>
        <button type="button" class="link" data-test="ws-message-view" onClick={() => props.onView(m)}>{t('common.view')}</button>
      </div>
      {text === null
        ? <p class="ws-payload muted" data-test="ws-message-payload">{m.payload ? t(encoding === 'json' ? 'payload.notJson' : 'payload.notText') : t('payload.tooLarge', { size: formatBytes(m.size) })}</p>
        : <p class="ws-payload" data-test="ws-message-payload">{text}</p>}
    </li>
  );
});

export function MessageList({ id, list }: { id: string; list: 'received' | 'published' }) {
  const conn = connectionOf(id);
  const snap = useSnapshot(conn);
  const info = snap[list];
  const log = logsOf(id)[list];
  void snap.rev; // re-render when the log changed
  const [scrollTop, setScrollTop] = useState(0);
  const [viewing, setViewing] = useState<LoggedMessage | null>(null);
  const count = log.length;
  const first = Math.max(0, Math.floor(scrollTop / ROW_PX) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + VIEW_PX) / ROW_PX) + OVERSCAN);
  const rows: LoggedMessage[] = [];
  for (let i = first; i < last; i++) rows.push(log.newest(i)!);

  const clear = async () => {
    if (await confirm(t('websocket.confirmClear'), { danger: true })) clearMessages(id, list);
  };

  return (
    <article class="ws-card" data-test={`ws-${list}`}>
      <header class="panel-head">
        <h3>{t(`websocket.${list}`, { count: formatNumber(info.total) })}</h3>
        <div class="toolbar">
          <SelectInput name={`${list}Encoding`} label="websocket.encoding" value={info.encoding} options={encodingOptions()}
            onChange={(v) => (conn[list].encoding = v)} />
          <button type="button" class="secondary outline" disabled={count === 0} data-test={`ws-${list}-clear`} onClick={clear}>{t('websocket.clear')}</button>
        </div>
      </header>
      {info.total > info.kept && <p class="muted note">{t('websocket.kept', { count: formatNumber(LOG_CAPACITY) })}</p>}
      {count === 0
        ? <Empty text={t('websocket.noMessages')} />
        : (
          <div class="ws-list" style={{ height: `${VIEW_PX}px` }} tabIndex={0} onScroll={(e) => setScrollTop((e.target as HTMLElement).scrollTop)}>
            <ul style={{ height: `${count * ROW_PX}px` }}>
              {rows.map((m, k) => <Row key={m.id} message={m} encoding={info.encoding} top={(first + k) * ROW_PX} onView={setViewing} />)}
            </ul>
          </div>
        )}
      {viewing && (
        <Drawer title={t('websocket.message')} onClose={() => setViewing(null)} test="ws-message-drawer">
          <Descriptions items={[['websocket.topic', viewing.topic], ['websocket.qos', viewing.qos], ['websocket.retain', viewing.retain], ['websocket.time', formatDateTime(viewing.time)], ...(viewing.props ?? []).map(([name, text]): [string, string] => [`websocket.${name}`, text])]} />
          {viewing.payload ? <PayloadView base64={toBase64(viewing.payload)} /> : <PayloadView base64="" size={viewing.size} />}
        </Drawer>
      )}
    </article>
  );
}
