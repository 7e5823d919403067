/**
 * Turns EMQX's dashboard samples (`GET /monitor`, emqx-api-part1 §6) into chart series: gauges as
 * they are, per-bucket deltas as messages per second. Gap buckets (`{time_stamp}` only) count as 0.
 */

export interface Sample {
  time_stamp: number;
  [key: string]: number | undefined;
}

/** The time ranges of the dashboard (spec part1 §9), as the query value and `latest` seconds. */
export const RANGES = [
  { key: '1h', seconds: 3600 },
  { key: '6h', seconds: 6 * 3600 },
  { key: '12h', seconds: 12 * 3600 },
  { key: '1d', seconds: 86_400 },
  { key: '3d', seconds: 3 * 86_400 },
  { key: '7d', seconds: 7 * 86_400 },
] as const;

export type RangeKey = (typeof RANGES)[number]['key'];

/** The range named in the URL, 1 h when missing or unknown. */
export function rangeOf(key: string | undefined) {
  return RANGES.find((r) => r.key === key) ?? RANGES[0];
}

/** Gauges are values at sample time; the others are increments during the bucket. */
export const GAUGES = ['connections', 'live_connections', 'subscriptions', 'topics'] as const;
export const DELTAS = ['received', 'sent', 'dropped'] as const;

/**
 * At most this many points per chart (older brokers send a 10 s sample for all 7 days): a chart
 * is at most ~480 px wide, so more points only cost drawing time (about 40 ms per chart at 720).
 */
export const MAX_POINTS = 240;

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * Merges neighbouring samples so at most `max` remain: a merged bucket keeps its last gauge
 * values and the sum of its deltas, stamped with its last sample's time.
 */
export function downsample(samples: Sample[], max = MAX_POINTS): Sample[] {
  if (samples.length <= max) return samples;
  const size = Math.ceil(samples.length / max);
  const out: Sample[] = [];
  for (let i = 0; i < samples.length; i += size) {
    const group = samples.slice(i, i + size);
    const last = group[group.length - 1];
    const merged: Sample = { ...last };
    for (const key of DELTAS) merged[key] = group.reduce((sum, s) => sum + num(s[key]), 0);
    out.push(merged);
  }
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `HH:mm` up to a day, `MM-DD HH:mm` beyond, in local time. */
export function timeLabel(ms: number, rangeSeconds: number): string {
  const d = new Date(ms);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return rangeSeconds > 86_400 ? `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}` : time;
}

export interface ChartData {
  labels: string[];
  /** Gauge and per-second rate values by field name. */
  values: Record<string, number[]>;
}

/**
 * Labels and values for the charts. A delta becomes a rate by dividing it by the bucket's length
 * (the time since the previous sample; the first bucket takes the next one's length).
 */
export function toChartData(samples: Sample[], rangeSeconds: number): ChartData {
  const points = downsample([...samples].filter((s) => Number.isFinite(s?.time_stamp)).sort((a, b) => a.time_stamp - b.time_stamp));
  const values: Record<string, number[]> = {};
  for (const key of GAUGES) values[key] = points.map((s) => num(s[key]));
  const seconds = points.map((s, i) => {
    const prev = points[i - 1] ?? points[i + 1];
    const span = prev ? Math.abs(s.time_stamp - prev.time_stamp) / 1000 : 10;
    return span > 0 ? span : 10;
  });
  for (const key of DELTAS) values[key] = points.map((s, i) => Math.round((num(s[key]) / seconds[i]) * 100) / 100);
  return { labels: points.map((s) => timeLabel(s.time_stamp, rangeSeconds)), values };
}
