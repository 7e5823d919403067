/**
 * What the broker's REST API knows of one topic: the subscriptions that match it
 * (`/subscriptions?match_topic=`), its retained message with delete, and its topic metrics when
 * the topic is registered there. Each part has its own loading, empty and error state.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'react';
import { api, isNotFound } from '../../../lib/api.ts';
import { canWrite } from '../../../lib/broker.ts';
import { confirm } from '../../../lib/confirm.ts';
import { handleError } from '../../../lib/errors.ts';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.ts';
import { PayloadView } from '../../../ui/PayloadView.tsx';
import { Empty, Failed, Loading } from '../../../ui/States.tsx';
import { retainedGone } from './store.ts';

const SUBSCRIBERS_SHOWN = 20;
const path = (topic: string) => encodeURIComponent(topic);

interface Subscription { clientid: string; topic: string; qos: number; node?: string }
interface Retained { topic: string; qos: number; payload?: string; publish_at?: string; from_clientid?: string }
interface TopicMetrics { topic: string; metrics: Record<string, number> }

type Load<T> = { state: 'loading' } | { state: 'ok'; value: T } | { state: 'failed'; error: unknown };

/** GETs `url` into a state; a 404 becomes `ok` with null (not there). Reloads when `key` changes. */
function useGet<T>(url: string, key: unknown): [Load<T | null>, () => void] {
  const [load, setLoad] = useState<Load<T | null>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setLoad({ state: 'loading' });
    api.get<T>(url, { signal: controller.signal }).then(
      (value) => setLoad({ state: 'ok', value }),
      (error) => {
        if (controller.signal.aborted) return;
        if (isNotFound(error)) setLoad({ state: 'ok', value: null });
        else setLoad({ state: 'failed', error });
      },
    );
    return () => controller.abort();
  }, [url, key, round]);
  return [load, () => setRound((n) => n + 1)];
}

function Part<T>({ load, retry, children }: { load: Load<T>; retry: () => void; children: (value: T) => ComponentChildren }) {
  if (load.state === 'loading') return <Loading />;
  if (load.state === 'failed') return <Failed error={load.error} retry={retry} />;
  return <>{children(load.value)}</>;
}

export function BrokerSide({ topic, retainedSeen }: { topic: string; retainedSeen: boolean }) {
  const [subs, reloadSubs] = useGet<{ data: Subscription[]; meta: { count?: number; hasnext?: boolean } }>(
    `/subscriptions?match_topic=${path(topic)}&limit=${SUBSCRIBERS_SHOWN}`, topic);
  const [retained, reloadRetained] = useGet<Retained>(`/mqtt/retainer/message/${path(topic)}`, retainedSeen);
  const [metrics, reloadMetrics] = useGet<TopicMetrics>(`/mqtt/topic_metrics/${path(topic)}`, topic);

  const remove = async () => {
    if (!(await confirm(t('explorer.confirmDeleteRetained'), { danger: true }))) return;
    try {
      await api.del(`/mqtt/retainer/message/${path(topic)}`);
      toast(t('explorer.retainedDeleted'));
      retainedGone(topic);
      reloadRetained();
    } catch (error) {
      handleError(error);
    }
  };

  return (
    <>
      <section data-test="explorer-retained-section">
        <h4>{t('explorer.retainedMessage')}</h4>
        <Part load={retained} retry={reloadRetained}>
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
      </section>
      <section data-test="explorer-subscribers">
        <h4>{t('explorer.subscribers')}</h4>
        <Part load={subs} retry={reloadSubs}>
          {(value) => !value?.data.length
            ? <Empty text={t('explorer.noSubscribers')} />
            : (
              <>
                <table class="tx-table">
                  <thead><tr><th>{t('explorer.clientid')}</th><th>{t('explorer.subscription')}</th><th>QoS</th><th>{t('explorer.node')}</th></tr></thead>
                  <tbody>
                    {value.data.map((s) => (
                      <tr key={`${s.node}/${s.clientid}/${s.topic}`} data-test="explorer-subscriber"><td><code>{s.clientid}</code></td><td><code>{s.topic}</code></td><td>{s.qos}</td><td>{s.node ?? ''}</td></tr>
                    ))}
                  </tbody>
                </table>
                {value.meta.hasnext && <small class="muted">{t('explorer.moreSubscribers', { count: SUBSCRIBERS_SHOWN })}</small>}
              </>
            )}
        </Part>
      </section>
      <section data-test="explorer-metrics">
        <h4>{t('explorer.metrics')}</h4>
        <Part load={metrics} retry={reloadMetrics}>
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
      </section>
    </>
  );
}
