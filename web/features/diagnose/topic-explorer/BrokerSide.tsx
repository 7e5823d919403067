/**
 * What the broker's REST API knows of one topic, each part asked only once the operator opens it:
 * the subscriptions that receive it (subscribers.ts; open at once), its retained message with
 * delete (open at once when the explorer saw one), and its topic metrics. Nothing is probed for
 * an answer the operator did not ask for, and "none" comes from a list that answers 200, not from
 * a 404: `/mqtt/retainer/messages?topic=` and `/mqtt/topic_metrics`.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'react';
import { api } from '../../../lib/api.ts';
import { canWrite } from '../../../lib/broker.ts';
import { confirm } from '../../../lib/confirm.ts';
import { handleError } from '../../../lib/errors.ts';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.ts';
import { PayloadView } from '../../../ui/PayloadView.tsx';
import { Empty, Failed, Loading } from '../../../ui/States.tsx';
import { retainedGone } from './store.ts';
import { subscribersOf } from './subscribers.ts';

const SUBSCRIBERS_SHOWN = 20;
const path = (topic: string) => encodeURIComponent(topic);

interface Retained { topic: string; qos: number; payload?: string; publish_at?: string; from_clientid?: string }
interface TopicMetrics { topic: string; metrics: Record<string, number> }

type Load<T> = { state: 'idle' | 'loading' } | { state: 'ok'; value: T } | { state: 'failed'; error: unknown };

/** Runs `loader` into a state once `active`, again on retry and when `version` changes. */
function useLoad<T>(loader: (signal: AbortSignal) => Promise<T>, active: boolean, version: number): [Load<T>, () => void] {
  const [load, setLoad] = useState<Load<T>>({ state: 'idle' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    setLoad({ state: 'loading' });
    loader(controller.signal).then(
      (value) => setLoad({ state: 'ok', value }),
      (error) => !controller.signal.aborted && setLoad({ state: 'failed', error }),
    );
    return () => controller.abort();
  }, [active, round, version]);
  return [load, () => setRound((n) => n + 1)];
}

/** One part: a disclosure whose content is asked for when it is first opened. */
function Part<T>(props: { title: string; test: string; open: boolean; loader: (signal: AbortSignal) => Promise<T>; children: (value: T) => ComponentChildren; version?: number }) {
  // Whether it is open now, and whether it ever was (what was read stays while it is closed).
  const [open, setOpen] = useState(props.open);
  const [asked, setAsked] = useState(props.open);
  const [load, retry] = useLoad(props.loader, asked, props.version ?? 0);
  return (
    <details class="tx-part" open={open} data-test={props.test}
      onToggle={(e) => {
        const now = (e.currentTarget as HTMLDetailsElement).open;
        setOpen(now);
        if (now) setAsked(true);
      }}>
      <summary><h4>{t(props.title)}</h4></summary>
      {load.state === 'ok' ? props.children(load.value)
        : load.state === 'failed' ? <Failed error={load.error} retry={retry} /> : <Loading />}
    </details>
  );
}

async function retainedOf(topic: string, signal: AbortSignal): Promise<Retained | null> {
  const list = await api.get<{ data: Retained[] }>('/mqtt/retainer/messages', { params: { topic, page: 1, limit: 1 }, signal });
  if (!list.data.some((m) => m.topic === topic)) return null;
  return api.get<Retained>(`/mqtt/retainer/message/${path(topic)}`, { signal });
}

async function metricsOf(topic: string, signal: AbortSignal): Promise<TopicMetrics | null> {
  const all = await api.get<TopicMetrics[]>('/mqtt/topic_metrics', { signal });
  return all.find((m) => m.topic === topic) ?? null;
}

export function BrokerSide({ topic, retainedSeen }: { topic: string; retainedSeen: boolean }) {
  const [deleted, setDeleted] = useState(0);
  const remove = async () => {
    if (!(await confirm(t('explorer.confirmDeleteRetained'), { danger: true }))) return;
    try {
      await api.del(`/mqtt/retainer/message/${path(topic)}`);
      toast(t('explorer.retainedDeleted'));
      retainedGone(topic);
      setDeleted((n) => n + 1);
    } catch (error) {
      handleError(error);
    }
  };

  return (
    <>
      <Part title="explorer.subscribers" test="explorer-subscribers" open loader={(signal) => subscribersOf(topic, SUBSCRIBERS_SHOWN, signal)}>
        {(value) => !value.rows.length
          ? <Empty text={t('explorer.noSubscribers')} />
          : (
            <>
              <table class="tx-table">
                <thead><tr><th>{t('explorer.clientid')}</th><th>{t('explorer.subscription')}</th><th>QoS</th><th>{t('explorer.node')}</th></tr></thead>
                <tbody>
                  {value.rows.map((s) => (
                    <tr key={`${s.node}/${s.clientid}/${s.topic}`} data-test="explorer-subscriber"><td><code>{s.clientid}</code></td><td><code>{s.topic}</code></td><td>{s.qos}</td><td>{s.node ?? ''}</td></tr>
                  ))}
                </tbody>
              </table>
              {value.more && <small class="muted">{t('explorer.moreSubscribers', { count: SUBSCRIBERS_SHOWN })}</small>}
            </>
          )}
      </Part>
      <Part title="explorer.retainedMessage" test="explorer-retained-section" open={retainedSeen} loader={(signal) => retainedOf(topic, signal)}
        version={deleted}>
        {(value) => !value
          ? <p class="muted" data-test="explorer-no-retained">{t('explorer.noRetained')}</p>
          : (
            <div data-test="explorer-retained-message">
              <p class="muted">QoS {value.qos} · {formatDateTime(value.publish_at)} · <code>{value.from_clientid ?? ''}</code></p>
              {value.payload !== undefined && <PayloadView base64={value.payload} />}
              {canWrite() && <button type="button" class="secondary outline danger" data-test="explorer-delete-retained" onClick={() => void remove()}>{t('explorer.deleteRetained')}</button>}
            </div>
          )}
      </Part>
      <Part title="explorer.metrics" test="explorer-metrics" open={false} loader={(signal) => metricsOf(topic, signal)}>
        {(value) => !value
          ? <p class="muted">{t('explorer.notMonitored')}</p>
          : (
            <table class="tx-table">
              <tbody>
                {Object.entries(value.metrics).filter(([name]) => /\.(count|rate)$/.test(name)).map(([name, n]) => (
                  <tr key={name}><td><code>{name}</code></td><td>{formatNumber(n)}</td></tr>
                ))}
              </tbody>
            </table>
          )}
      </Part>
    </>
  );
}
