// The dashboard time series (emqx_dashboard_monitor, emqx-api-part1 §6): every node is sampled
// each interval (10 s) into a buffer covering 7 days that is compacted by age as EMQX does, and
// read back downsampled by the window asked for, with empty buckets as `{time_stamp}` only.
// The release's delta samplers (`received`, `sent`, `dropped` …) are increments per bucket, its
// gauges the value at the sample (profile MONITOR_SAMPLERS). The demo seed
// back-fills plausible history so every range has data. Sampling is driven by `tick()`, which a
// timer or a reader calls; it reads the injected clock, so tests move time instead of waiting.
import type { Clock } from '../../plugins/clock.ts';
import { seededRandom } from '../../lib/random.ts';
import type { MonitorSamplers } from '../profile.ts';

/** Figures by sampler name (`connections`, `received` …). */
export type Gauges = Record<string, number>;
export type Counters = Record<string, number>;

/** A stored sample: every sampler of the release present. */
export type FullSample = { time_stamp: number } & Record<string, number>;
/** A sample as the API returns it: a gap bucket has `time_stamp` only. */
export type Sample = { time_stamp: number } & Record<string, number>;

/** Where a node's figures come from. */
export interface MonitorSource {
  node: string;
  /** Gauges by sampler name; a sampler it lacks reads 0. */
  gauges(): Gauges;
  /** Monotonic totals by delta sampler name (messages.received …); a sampler it lacks reads 0. */
  counters(): Counters;
}

/** Shape of a node's back-filled history: typical gauges and rates at the daily peak. */
export interface HistoryProfile {
  gauges: Gauges;
  /** Messages per second. */
  rates: Counters;
  /** Gauges and rates the history converges to at its end (the live values), if they differ. */
  endGauges?: Gauges;
  endRates?: Counters;
  /** Epoch-ms ranges with no samples (a node restart), to show gaps. */
  outages?: [number, number][];
}

// The route table is cluster-wide: every node reports the same topics, taken once.
const TAKEN_ONCE = 'topics';

/** ?DELTA_SAMPLER_RATE_MAP: the current rate's name of a delta sampler. */
export function rateName(delta: string): string {
  return ['received', 'sent', 'dropped'].includes(delta) ? `${delta}_msg_rate` : `${delta}_rate`;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
export const RETENTION_MS = 7 * DAY;

// Stored resolution by sample age, and read resolution by window length (§6): ≤ 1 h at the
// sample interval, ≤ 1 d per minute, ≤ 3 d per 5 minutes, older per 10 minutes.
const TIERS: readonly [number, number][] = [[HOUR, 0], [DAY, MINUTE], [3 * DAY, 5 * MINUTE], [Infinity, 10 * MINUTE]];

function tierStep(span: number, interval: number): number {
  for (const [upTo, step] of TIERS) if (span <= upTo) return Math.max(step, interval);
  return 10 * MINUTE;
}

function floorTo(ms: number, step: number): number {
  return Math.floor(ms / step) * step;
}


/** Daily load curve between 0.35 (night) and 1 (mid-afternoon), by UTC hour. */
function dailyLoad(ms: number): number {
  const hour = (ms % DAY) / HOUR;
  return 0.675 + 0.325 * Math.sin(((hour - 8) / 24) * 2 * Math.PI);
}

class Series {
  samples: FullSample[] = [];
  last: Counters;

  constructor(readonly source: MonitorSource) {
    this.last = source.counters();
  }
}

/** GET /monitor_current of one node: the rate of each delta sampler and each gauge. */
export type CurrentView = Record<string, number>;

export class Monitor {
  private readonly series: Series[];
  private lastSampleAt = 0;
  private lastCompactAt = 0;

  constructor(
    private readonly clock: Clock,
    /** Sampling interval in ms (EMQX `dashboard.sample_interval`, 10 s). */
    readonly intervalMs: number,
    sources: readonly MonitorSource[],
    /** The release's samplers (profile MONITOR_SAMPLERS). */
    private readonly samplers: MonitorSamplers,
    /** Called after every round of samples (alarm conditions are checked there). */
    private readonly afterTick: () => void = () => {},
  ) {
    this.series = sources.map((s) => new Series(s));
  }

  /** Merges consecutive samples into one: deltas add up, gauges keep the latest value. */
  private mergeInto(target: FullSample, next: FullSample): void {
    for (const key of this.samplers.deltas) target[key] += next[key];
    for (const key of this.samplers.gauges) target[key] = next[key];
  }

  /** A node's gauges of the release, 0 where the source has none. */
  private gaugesOf(source: MonitorSource): Gauges {
    const given = source.gauges();
    return Object.fromEntries(this.samplers.gauges.map((key) => [key, given[key] ?? 0]));
  }

  /**
   * The cluster's figures as the broker reports them (adjust_synthetic_cluster_metrics/1 from
   * 5.8): durable subscriptions and disconnected durable sessions counted in, the in-memory
   * subscriptions kept as `subscriptions_ram`. Changes `metrics`, an object made for the answer.
   */
  private synthetic<T extends Record<string, number>>(metrics: T): T {
    if (!this.samplers.clusterRam) return metrics;
    const figures = metrics as Record<string, number>;
    const ram = figures.subscriptions ?? 0;
    figures.subscriptions = ram + (figures.subscriptions_durable ?? 0);
    figures.subscriptions_ram = ram;
    figures.connections = (figures.connections ?? 0) + (figures.disconnected_durable_sessions ?? 0);
    return metrics;
  }

  /** DELETE /monitor (5.8): forgets every stored sample of every node; sampling goes on. */
  clear(): void {
    for (const s of this.series) s.samples = [];
  }

  /** Node names in cluster order. */
  nodes(): string[] {
    return this.series.map((s) => s.source.node);
  }

  /**
   * Takes one sample per node when the clock has passed a new interval boundary. After a long
   * pause only the current boundary is sampled, so the missed ones read as gaps.
   */
  tick(): boolean {
    const now = this.clock.now();
    const at = floorTo(now, this.intervalMs);
    if (at <= this.lastSampleAt) return false;
    this.lastSampleAt = at;
    for (const series of this.series) {
      const counters = series.source.counters();
      const sample = { time_stamp: at, ...this.gaugesOf(series.source) } as FullSample;
      // A counter that went back (a node restarted) counts from zero again.
      for (const key of this.samplers.deltas) sample[key] = Math.max(0, (counters[key] ?? 0) - (series.last[key] ?? 0));
      series.last = counters;
      series.samples.push(sample);
    }
    if (at - this.lastCompactAt >= MINUTE) this.compact(now);
    this.afterTick();
    return true;
  }

  /** Merges aged samples into coarser buckets and drops those past retention. */
  private compact(now: number): void {
    this.lastCompactAt = floorTo(now, this.intervalMs);
    for (const series of this.series) {
      const kept: FullSample[] = [];
      let key = Number.NaN;
      for (const sample of series.samples) {
        const age = now - sample.time_stamp;
        if (age > RETENTION_MS) continue;
        const step = tierStep(age, this.intervalMs);
        const bucket = floorTo(sample.time_stamp, step);
        const previous = kept[kept.length - 1];
        if (previous && bucket === key && previous.time_stamp === bucket) this.mergeInto(previous, sample);
        else {
          kept.push({ ...sample, time_stamp: bucket });
          key = bucket;
        }
      }
      series.samples = kept;
    }
  }

  /** Fills the buffer with history ending one interval before now, at stored resolution. */
  backfill(profiles: ReadonlyMap<string, HistoryProfile>): void {
    const end = floorTo(this.clock.now(), this.intervalMs);
    this.series.forEach((series, index) => {
      const profile = profiles.get(series.source.node);
      if (!profile) return;
      const rand = seededRandom(0x5eed + index * 7919);
      const history: FullSample[] = [];
      for (let t = end - RETENTION_MS; t < end;) {
        const step = tierStep(end - t, this.intervalMs);
        const at = floorTo(t, step);
        t = at + step;
        if (at < end - RETENTION_MS || at >= end) continue;
        if (profile.outages?.some(([from, to]) => at >= from && at < to)) continue;
        const load = dailyLoad(at) * (0.95 + 0.1 * rand());
        // The last quarter hour slides towards the live values so history meets the present.
        const fade = Math.min(1, Math.max(0, (end - at) / (15 * MINUTE)));
        const sample = { time_stamp: at } as FullSample;
        for (const key of this.samplers.gauges) {
          const typical = Math.round((profile.gauges[key] ?? 0) * (key === TAKEN_ONCE ? 1 : load));
          const live = profile.endGauges?.[key] ?? typical;
          sample[key] = Math.round(live + (typical - live) * fade);
        }
        for (const key of this.samplers.deltas) {
          const typical = (profile.rates[key] ?? 0) * load;
          const live = profile.endRates?.[key] ?? typical;
          sample[key] = Math.round((live + (typical - live) * fade) * (step / SECOND));
        }
        history.push(sample);
      }
      series.samples = [...history, ...series.samples.filter((s) => s.time_stamp >= end)];
    });
    this.lastCompactAt = end;
  }

  private seriesOf(node: string): Series | undefined {
    return this.series.find((s) => s.source.node === node);
  }

  /** A copy of `sample` stamped `at`, gauges then deltas as samples are taken (one shape for all). */
  private copyOf(sample: FullSample, at: number): FullSample {
    const copy = { time_stamp: at } as FullSample;
    for (const key of this.samplers.gauges) copy[key] = sample[key];
    for (const key of this.samplers.deltas) copy[key] = sample[key];
    return copy;
  }

  /** Buckets of one series over a window, keyed by bucket start. */
  private buckets(series: Series, from: number, step: number): Map<number, FullSample> {
    const buckets = new Map<number, FullSample>();
    const { samples } = series;
    // Samples are kept in time order (taken in turn, compacted in place): the window's first one
    // is found by bisection, not by reading a week of history on every request.
    let low = 0;
    let high = samples.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (samples[mid].time_stamp < from) low = mid + 1;
      else high = mid;
    }
    for (let i = low; i < samples.length; i++) {
      const sample = samples[i];
      const key = floorTo(sample.time_stamp, step);
      const bucket = buckets.get(key);
      if (bucket) this.mergeInto(bucket, sample);
      else buckets.set(key, this.copyOf(sample, key));
    }
    return buckets;
  }

  /**
   * GET /monitor (node null: the cluster, summed per bucket with `topics` taken once) or
   * /monitor/nodes/{node}: the last `latestSeconds` (all retained when absent), ascending.
   */
  query(node: string | null, latestSeconds?: number): Sample[] | null {
    const chosen = node === null ? this.series : [this.seriesOf(node)].filter((s): s is Series => !!s);
    if (chosen.length === 0) return null;
    this.tick();
    const now = this.clock.now();
    const span = Math.min(RETENTION_MS, (latestSeconds ?? Infinity) * SECOND);
    const step = tierStep(span, this.intervalMs);
    const from = now - span;
    const perNode = chosen.map((s) => this.buckets(s, from, step));
    let first = Infinity;
    let last = -Infinity;
    for (const buckets of perNode) {
      for (const key of buckets.keys()) {
        first = Math.min(first, key);
        last = Math.max(last, key);
      }
    }
    const out: Sample[] = [];
    const fields = [...this.samplers.deltas, ...this.samplers.gauges];
    for (let key = first; key <= last; key += step) {
      // Each bucket is a copy made for this answer: the first node's is added to in place.
      let merged: FullSample | undefined;
      for (const buckets of perNode) {
        const sample = buckets.get(key);
        if (sample === undefined) continue;
        if (merged === undefined) {
          merged = sample;
          continue;
        }
        for (const k of fields) merged[k] = k === TAKEN_ONCE ? Math.max(merged[k], sample[k]) : merged[k] + sample[k];
      }
      if (merged === undefined) out.push({ time_stamp: key });
      else out.push(node === null ? this.synthetic(merged) : merged);
    }
    return out;
  }

  /** Per-second rates of the node's last bucket, with live gauges (GET /monitor_current). */
  current(node: string): CurrentView | null {
    const series = this.seriesOf(node);
    if (!series) return null;
    this.tick();
    const [previous, last] = series.samples.slice(-2);
    const latest = last ?? previous;
    const seconds = last && previous ? (last.time_stamp - previous.time_stamp) / SECOND : this.intervalMs / SECOND;
    const rate = (key: string) => (latest ? Math.round((latest[key] ?? 0) / Math.max(seconds, 1)) : 0);
    return {
      ...Object.fromEntries(this.samplers.deltas.map((key) => [rateName(key), rate(key)])),
      ...this.gaugesOf(series.source),
    };
  }

  /** GET /monitor_current of the cluster: the nodes' views added up (`once` taken once). */
  clusterCurrent(views: readonly Record<string, number>[], once: ReadonlySet<string>): Record<string, number> {
    const total: Record<string, number> = {};
    for (const values of views) {
      for (const [key, value] of Object.entries(values)) total[key] = once.has(key) ? value : (total[key] ?? 0) + value;
    }
    return this.synthetic(total);
  }

  /** Number of stored samples of a node (for tests and diagnostics). */
  stored(node: string): number {
    return this.seriesOf(node)?.samples.length ?? 0;
  }
}
