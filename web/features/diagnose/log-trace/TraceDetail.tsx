/**
 * One trace's page: its settings from `GET /trace`, and its log read in chunks through
 * `GET /trace/{name}/log?bytes&position&node` (envelope G). While the trace waits or runs the page
 * keeps asking from the last position (only while the tab is visible); past 1 MB it stops and
 * suggests downloading the zip instead of growing the page.
 */
import { useEffect, useRef, useState } from 'react';
import { api, ApiError } from '../../../lib/api.ts';
import { handleError } from '../../../lib/errors.ts';
import { formatBytes, formatDateTime } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { perform, useLiveRefresh, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { Descriptions } from '../../../ui/Descriptions.tsx';
import { Failed, Loading, NotFound } from '../../../ui/States.tsx';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import { Writable } from '../../../ui/Writable.tsx';
import { conditionOf, downloadTrace, tracePath, TYPE_LABELS, type Trace } from './trace.ts';
import './messages.ts';

/** Bytes asked per request, and shown before the page suggests downloading. */
export const CHUNK_BYTES = 64 * 1024;
export const SHOWN_LIMIT = 1024 * 1024;
const FOLLOW_MS = 3000;

interface LogPage {
  items: string;
  meta: { position: number; bytes: number };
}

export default function TraceDetail({ id }: { id: string }) {
  const name = decodeURIComponent(id);
  return <TracePage key={name} name={name} />;
}

function TracePage({ name }: { name: string }) {
  const list = useRemote('trace', (signal) => api.get<Trace[]>('/trace', { signal }), '', 5000);
  const [node, setNode] = useState('');
  const [busy, setBusy] = useState(false);
  if (!list.data) return list.error ? <Failed error={list.error} retry={list.reload} /> : <Loading />;
  const trace = list.data.find((one) => one.name === name);
  if (!trace) {
    return <NotFound text={t('logTrace.notFound')} back="/log-trace" backTitle="diagnose.logTrace" test="trace-not-found" />;
  }
  const nodes = Object.keys(trace.log_size ?? {});
  const current = node || nodes[0] || '';

  const save = async () => {
    setBusy(true);
    try {
      await downloadTrace(name);
      toast(t('logTrace.downloaded'));
    } catch (error) {
      handleError(error);
    } finally {
      setBusy(false);
    }
  };
  const stop = () => perform({
    resource: 'trace', run: () => api.put(`${tracePath(name)}/stop`), confirm: 'logTrace.confirmStop', success: 'logTrace.stopped', params: { key: name },
  });

  return (
    <section class="trace-detail" data-test="trace-detail">
      <header class="page-head">
        <h2 class="client-title"><span data-test="trace-name">{trace.name}</span> <StatusTag status={trace.status} test="trace-status" /></h2>
        <div class="toolbar">
          {nodes.length > 1 && (
            <label class="inline-field">
              {t('logTrace.node')}
              <select value={current} onChange={(e) => setNode((e.target as HTMLSelectElement).value)} data-test="trace-node">
                {nodes.map((n) => <option key={n} value={n}>{n}</option>)}
              </select>
            </label>
          )}
          {trace.status !== 'stopped' && (
            <Writable><button type="button" class="secondary outline" onClick={stop} data-test="trace-stop">{t('logTrace.stop')}</button></Writable>
          )}
          <button type="button" aria-busy={busy} disabled={busy} onClick={save} data-test="trace-download">{t('logTrace.download')}</button>
        </div>
      </header>
      {list.error ? <Failed error={list.error} retry={list.reload} /> : null}
      <Descriptions test="trace-info" items={[
        ['logTrace.type', t(TYPE_LABELS[trace.type] ?? trace.type)],
        ['logTrace.condition', conditionOf(trace)],
        ['logTrace.startAt', formatDateTime(trace.start_at)],
        ['logTrace.endAt', formatDateTime(trace.end_at)],
        ['logTrace.payloadEncode', t(`logTrace.encode${trace.payload_encode.charAt(0).toUpperCase()}${trace.payload_encode.slice(1)}`)],
        ['logTrace.logSize', formatBytes(trace.log_size?.[current] ?? 0)],
      ]} />
      <TraceLog key={current} name={name} node={current} status={trace.status} total={trace.log_size?.[current] ?? 0} download={save} />
    </section>
  );
}

function TraceLog(props: { name: string; node: string; status: Trace['status']; total: number; download: () => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [follow, setFollow] = useState(true);
  // Read position, the byte budget left before suggesting the download, the request in flight.
  const state = useRef({ position: 0, budget: SHOWN_LIMIT, busy: false, controller: new AbortController() });
  const pre = useRef<HTMLPreElement>(null);

  /** Reads chunks from the last position until the end of the log or the budget. */
  const read = async () => {
    const s = state.current;
    if (s.busy || s.budget <= 0) return;
    s.busy = true;
    try {
      let added = '';
      while (s.budget > 0) {
        const page = await api.get<LogPage>(`${tracePath(props.name)}/log`, {
          params: { bytes: Math.min(CHUNK_BYTES, s.budget), position: s.position, node: props.node }, signal: s.controller.signal,
        });
        const read = page.meta.position - s.position;
        if (!page.items || read <= 0) break;
        added += page.items;
        s.position = page.meta.position;
        s.budget -= read;
        if (read < page.meta.bytes) break;
      }
      if (added) setText((old) => old + added);
      setError(null);
    } catch (failure) {
      if (!(failure instanceof ApiError && failure.message === 'canceled')) setError(failure);
    } finally {
      s.busy = false;
      if (!s.controller.signal.aborted) setLoading(false);
    }
  };

  useEffect(() => {
    void read();
    return () => state.current.controller.abort();
  }, []);
  const live = props.status !== 'stopped' && follow;
  useLiveRefresh(live ? FOLLOW_MS : 0, () => void read());
  // The last lines of a trace that has just stopped.
  useEffect(() => {
    if (props.status === 'stopped' && state.current.position > 0) void read();
  }, [props.status]);
  useEffect(() => {
    if (follow && pre.current) pre.current.scrollTop = pre.current.scrollHeight;
  }, [text]);

  const more = () => {
    state.current.budget += SHOWN_LIMIT;
    void read();
  };
  const capped = state.current.budget <= 0;
  return (
    <section class="trace-log" data-test="trace-log">
      <div class="panel-head">
        <span class="muted" data-test="trace-shown">{t('logTrace.shown', { shown: formatBytes(state.current.position), total: formatBytes(Math.max(props.total, state.current.position)) })}</span>
        <label class="inline-field">
          <input type="checkbox" role="switch" checked={follow} onChange={(e) => setFollow((e.target as HTMLInputElement).checked)} data-test="trace-follow" />
          {t('logTrace.follow')}
        </label>
      </div>
      {error ? <Failed error={error} retry={() => void read()} /> : null}
      {capped && (
        <div class="notice notice-warn" role="status" data-test="trace-too-long">
          <span>{t('logTrace.tooLong', { size: formatBytes(state.current.position) })}</span>
          <button type="button" class="secondary outline" onClick={more} data-test="trace-more">{t('logTrace.loadMore')}</button>
          <button type="button" class="secondary" onClick={props.download} data-test="trace-download-long">{t('logTrace.download')}</button>
        </div>
      )}
      {text
        ? <pre class="log-view" ref={pre} tabIndex={0} data-test="trace-lines">{text}</pre>
        : loading && !error ? <Loading /> : !error && (
          <p class="state muted" data-test="state-empty">{t(props.status === 'waiting' ? 'logTrace.waiting' : 'logTrace.noLines')}</p>
        )}
    </section>
  );
}
