/**
 * The slow subscription settings as EMQX keeps them (`GET/PUT /slow_subscriptions/settings`,
 * durations as HOCON strings such as `500ms` or `300s`) and as the form edits them (numbers with
 * a unit), converted both ways.
 */
export interface SlowSubsSettings {
  enable: boolean;
  threshold: string;
  expire_interval: string;
  top_k_num: number;
  stats_type: 'whole' | 'internal' | 'response';
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of a HOCON duration (`500ms`, `5s`, `1h30m`, a bare number of ms); NaN when unreadable. */
export function durationMs(value: string | number): number {
  if (typeof value === 'number') return value;
  const text = value.trim().toLowerCase();
  if (/^\d+$/.test(text)) return Number(text);
  if (!/^(\d+(ms|s|m|h|d))+$/.test(text)) return NaN;
  let total = 0;
  for (const [, n, unit] of text.matchAll(/(\d+)(ms|s|m|h|d)/g)) total += Number(n) * UNITS[unit];
  return total;
}

/** The form's values: the threshold in ms, the eviction time in whole seconds when it is one. */
export function toForm(s: SlowSubsSettings): Record<string, unknown> {
  const expire = durationMs(s.expire_interval);
  const inSeconds = Number.isFinite(expire) && expire % 1000 === 0;
  return {
    enable: s.enable,
    threshold: durationMs(s.threshold),
    top_k_num: s.top_k_num,
    expire_interval: inSeconds ? expire / 1000 : expire,
    expire_unit: inSeconds ? 's' : 'ms',
    stats_type: s.stats_type,
  };
}

/** The PUT body for the form's values. */
export function fromForm(v: Record<string, unknown>): SlowSubsSettings {
  return {
    enable: Boolean(v.enable),
    threshold: `${Number(v.threshold)}ms`,
    expire_interval: `${Number(v.expire_interval)}${v.expire_unit === 'ms' ? 'ms' : 's'}`,
    top_k_num: Number(v.top_k_num),
    stats_type: v.stats_type as SlowSubsSettings['stats_type'],
  };
}
