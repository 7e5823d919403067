/**
 * The selected topic: its last message (payload viewer, QoS, retain flag, MQTT 5 properties), the
 * last messages with their times, the JSON diff and value chart, what the broker knows of it over
 * REST, and actions (publish, copy, open in the test client). Topics and payloads stay text.
 */
import { memo, useState } from 'react';
import { useSnapshot } from 'valtio';
import { formatBytes, formatDateTime, formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { navigate } from '../../../lib/navigation.ts';
import { toast } from '../../../lib/toasts.ts';
import { Descriptions, type DescriptionItem } from '../../../ui/Descriptions.tsx';
import { PayloadView } from '../../../ui/PayloadView.tsx';
import { Empty } from '../../../ui/States.tsx';
import { CheckInput, QOS_OPTIONS, SelectInput } from '../websocket/inputs.tsx';
import { toBase64 } from '../websocket/payload.ts';
import { wsClient } from '../websocket/store.ts';
import { Insights } from './Insights.tsx';
import { explorer, model, publishHere } from './store.ts';
import { BrokerSide } from './BrokerSide.tsx';
import { preview } from './TopicTree.tsx';
import type { TopicMessage } from './tree.ts';

/** The payload viewer, redrawn only when the message changes. */
const LastPayload = memo(function LastPayload({ message }: { message: TopicMessage }) {
  return message.payload ? <PayloadView base64={toBase64(message.payload)} /> : <PayloadView base64="" size={message.size} />;
}, (a, b) => a.message === b.message);

function propsOf(message: TopicMessage): DescriptionItem[] {
  return (message.props ?? []).map(([name, text]): DescriptionItem => [name === 'contentType' || name === 'userProperties' ? `explorer.${name}` : `websocket.${name}`, text]);
}

function PublishForm({ topic, last }: { topic: string; last?: TopicMessage }) {
  const [payload, setPayload] = useState(() => (last && last.size < 4096 ? preview(last) : ''));
  const [qos, setQos] = useState<0 | 1 | 2>(0);
  const [retain, setRetain] = useState(false);
  return (
    <form class="tx-publish" data-test="explorer-publish-form" onSubmit={(e) => (e.preventDefault(), void publishHere(topic, payload, qos, retain))}>
      <label class="ws-field">
        <span>{t('explorer.payload')}</span>
        <textarea rows={3} value={payload} data-test="explorer-publish-payload" onInput={(e) => setPayload((e.target as HTMLTextAreaElement).value)} />
      </label>
      <div class="ws-inline-form">
        <SelectInput name="publishQos" label="websocket.qos" value={qos} options={QOS_OPTIONS} onChange={setQos} />
        <CheckInput name="publishRetain" label="websocket.retain" checked={retain} onChange={setRetain} />
        <button type="submit" data-test="explorer-publish-submit">{t('explorer.send')}</button>
      </div>
    </form>
  );
}

function openInClient(topic: string) {
  const conn = wsClient.connections.find((c) => c.id === wsClient.active) ?? wsClient.connections[0];
  conn.subscribeForm.topic = topic;
  conn.publishForm.topic = topic;
  void navigate('/websocket');
}

async function copy(topic: string) {
  try {
    await navigator.clipboard.writeText(topic);
    toast(t('explorer.copied'));
  } catch (error) {
    toast(`${t('websocket.errorOccurred')}: ${(error as Error).message}`, 'error');
  }
}

export function TopicPanel() {
  const snap = useSnapshot(explorer);
  const [publishing, setPublishing] = useState(false);
  const topic = snap.selected;
  void snap.rev;
  if (!topic) return <article class="ws-card tx-panel"><Empty text={t('explorer.selectTopic')} /></article>;
  const node = model().tree.find(topic);
  const history = node?.history ?? [];
  const last = history[history.length - 1];
  const newestFirst = history.slice().reverse();

  return (
    <article class="ws-card tx-panel" data-test="explorer-panel">
      <header class="panel-head">
        <h3><code class="tx-topic" data-test="explorer-panel-topic">{topic}</code></h3>
        <div class="toolbar">
          <button type="button" class="secondary outline" aria-expanded={publishing} data-test="explorer-publish" onClick={() => setPublishing(!publishing)}>{t('explorer.publish')}</button>
          <button type="button" class="secondary outline" data-test="explorer-copy" onClick={() => void copy(topic)}>{t('explorer.copy')}</button>
          <button type="button" class="secondary outline" data-test="explorer-open-client" onClick={() => openInClient(topic)}>{t('explorer.openInClient')}</button>
        </div>
      </header>
      {publishing && <PublishForm key={topic} topic={topic} last={last} />}
      {!last
        ? <p class="muted">{t(node?.isTopic ? 'explorer.historyDropped' : 'explorer.notTopic', { count: formatNumber(node?.dropped ?? 0) })}</p>
        : (
          <section data-test="explorer-last">
            <h4>{t('explorer.lastMessage')}</h4>
            <Descriptions test="explorer-meta" items={[
              ['explorer.time', formatDateTime(last.time)],
              ['websocket.qos', String(last.qos)],
              ['explorer.retain', t(last.retain ? 'common.yes' : 'common.no')],
              ['explorer.size', formatBytes(last.size)],
              ...propsOf(last),
            ]} />
            <LastPayload message={last} />
          </section>
        )}
      {history.length > 0 && (
        <section>
          <h4>{t('explorer.history', { count: formatNumber(history.length) })}
            {node!.dropped > 0 && <small class="muted"> · {t('explorer.historyDropped', { count: formatNumber(node!.dropped) })}</small>}</h4>
          <ol class="tx-history" data-test="explorer-history">
            {newestFirst.map((m) => (
              <li key={m.id} data-test="explorer-history-item">
                <time class="muted">{formatDateTime(m.time)}</time>
                <span class="tag tag-off">QoS {m.qos}</span>
                {m.retain && <span class="tag tag-warn">{t('websocket.retain')}</span>}
                <span class="tx-preview">{m.payload ? preview(m) : t('payload.tooLarge', { size: formatBytes(m.size) })}</span>
              </li>
            ))}
          </ol>
        </section>
      )}
      {history.length > 0 && <Insights key={topic} history={history} />}
      <BrokerSide key={topic} topic={topic} retainedSeen={Boolean(node?.retained)} />
    </article>
  );
}
