// Slow subscriptions (emqx_slow_subs): the settings are configuration (`slow_subs`, persisted,
// returned raw as they were put); the records are live. The broker tap reports each completed
// QoS 1/2 delivery with its three latencies; the one named by `stats_type` is compared with the
// threshold, and the slowest `top_k_num` (client, topic) pairs are kept until they are older
// than `expire_interval`. Disabling the statistics, or clearing them, starts them afresh.
import type { StoreContext } from '../context.ts';

export type StatsType = 'whole' | 'internal' | 'response';

export interface SlowSubsSettings {
  enable: boolean;
  threshold: string;
  expire_interval: string;
  top_k_num: number;
  stats_type: StatsType;
}

/** The schema defaults (emqx_slow_subs_schema). */
export const DEFAULT_SLOW_SUBS: SlowSubsSettings = {
  enable: false, threshold: '500ms', expire_interval: '300s', top_k_num: 10, stats_type: 'whole',
};

/** The API answers at most this many records, cluster-wide. */
export const MAX_RECORDS = 1000;

export interface SlowSubRecord {
  clientid: string;
  node: string;
  topic: string;
  timespan: number;
  last_update_time: number;
}

/** One finished delivery's latencies in ms: whole = internal + response. */
export interface DeliveryTimes {
  whole: number;
  internal: number;
  response: number;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** HOCON durations as EMQX reads them (`500ms`, `5s`, `1h30m`, or plain ms); null when malformed. */
export function durationMs(value: string): number | null {
  const text = value.trim().toLowerCase();
  if (/^\d+$/.test(text)) return Number(text);
  if (!/^(\d+(ms|s|m|h|d))+$/.test(text)) return null;
  let total = 0;
  for (const [, n, unit] of text.matchAll(/(\d+)(ms|s|m|h|d)/g)) total += Number(n) * UNITS[unit];
  return total;
}

export class SlowSubs {
  private readonly records = new Map<string, SlowSubRecord>();
  private thresholdMs = 500;
  private expireMs = 300_000;
  private topK = 10;
  private statsType: StatsType = 'whole';

  constructor(
    private readonly ctx: StoreContext,
    private readonly node: string,
  ) {
    this.apply(this.settings());
    ctx.onStateReplaced(() => this.apply(this.settings()));
  }

  settings(): SlowSubsSettings {
    return { ...DEFAULT_SLOW_SUBS, ...this.ctx.state.slow_subs };
  }

  /** Whether the tap should measure at all (read on every delivery, so a plain field). */
  enabled = false;

  private apply(settings: SlowSubsSettings): void {
    this.enabled = settings.enable;
    this.thresholdMs = durationMs(settings.threshold) ?? 500;
    this.expireMs = durationMs(settings.expire_interval) ?? 300_000;
    this.topK = settings.top_k_num;
    this.statsType = settings.stats_type;
  }

  /** PUT /slow_subscriptions/settings; the caller has validated the shape. */
  async update(settings: SlowSubsSettings): Promise<SlowSubsSettings> {
    this.ctx.state.slow_subs = { ...settings };
    this.apply(settings);
    if (!settings.enable) this.records.clear();
    this.trim(this.ctx.clock.now());
    await this.ctx.persist();
    return this.settings();
  }

  /** GET /slow_subscriptions: slowest first, at most 1000 (envelope F). */
  list(): SlowSubRecord[] {
    this.trim(this.ctx.clock.now());
    return [...this.records.values()].sort((a, b) => b.timespan - a.timespan).slice(0, MAX_RECORDS);
  }

  /** DELETE /slow_subscriptions. */
  clear(): void {
    this.records.clear();
  }

  /** Tap: a QoS 1/2 delivery to `clientid` on `topic` completed with these latencies. */
  completed(clientid: string, topic: string, times: DeliveryTimes, now: number): void {
    if (!this.enabled) return;
    const timespan = Math.max(0, Math.round(times[this.statsType]));
    if (timespan <= this.thresholdMs) return;
    const key = `${clientid}\u0000${topic}`;
    this.records.delete(key);
    this.records.set(key, { clientid, node: this.node, topic, timespan, last_update_time: now });
    this.trim(now);
  }

  /** Drops expired records, then the fastest ones beyond top_k_num. */
  private trim(now: number): void {
    for (const [key, record] of this.records) {
      if (now - record.last_update_time > this.expireMs) this.records.delete(key);
    }
    const k = this.topK;
    if (this.records.size <= k) return;
    const kept = [...this.records.entries()].sort((a, b) => b[1].timespan - a[1].timespan);
    for (const [key] of kept.slice(k)) this.records.delete(key);
  }
}
