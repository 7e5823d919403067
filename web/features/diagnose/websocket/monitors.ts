/**
 * Topic monitors of the test client: per watched topic (or filter) the messages this connection
 * received (incoming), published (outgoing) and could not publish (dropped), and their rates in
 * messages per second between two samples. Counting is plain arithmetic, outside valtio.
 */

export interface Counts {
  incoming: number;
  outgoing: number;
  dropped: number;
}

export type Rates = Counts;
export type Direction = keyof Counts;

/** Whether `topic` matches `filter` [MQTT-4.7.1]; wildcards at the first level skip `$` topics [MQTT-4.7.2-1]. */
export function topicMatches(filter: string, topic: string): boolean {
  if (filter === topic) return true;
  if ((filter.startsWith('#') || filter.startsWith('+')) && topic.startsWith('$')) return false;
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length || (f[i] !== '+' && f[i] !== t[i])) return false;
  }
  return f.length === t.length;
}

/** One watched topic: running counts plus the counts and time of the last rate sample. */
export class TopicCounter {
  readonly counts: Counts = { incoming: 0, outgoing: 0, dropped: 0 };
  private last: Counts = { incoming: 0, outgoing: 0, dropped: 0 };
  private lastAt: number;

  constructor(readonly filter: string, now: number) {
    this.lastAt = now;
  }

  /** Counts one message on `topic` in `direction` when the filter matches it. */
  count(topic: string, direction: Direction) {
    if (topicMatches(this.filter, topic)) this.counts[direction] += 1;
  }

  /** Messages per second in each direction since the previous sample (rounded to 0.1). */
  sample(now: number): Rates {
    const seconds = (now - this.lastAt) / 1000;
    const rate = (d: Direction) => (seconds > 0 ? Math.round(((this.counts[d] - this.last[d]) / seconds) * 10) / 10 : 0);
    const rates = { incoming: rate('incoming'), outgoing: rate('outgoing'), dropped: rate('dropped') };
    this.last = { ...this.counts };
    this.lastAt = now;
    return rates;
  }
}
