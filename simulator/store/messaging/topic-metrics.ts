// Topic metrics (emqx_topic_metrics): message counters for up to 512 registered topic names,
// fed by the broker tap with every message published to, delivered from and dropped on such a
// topic, per QoS. The registered topics are configuration (`topic_metrics`, persisted); the
// counters are live. Rates are messages per second smoothed over about five seconds, like the
// moving average EMQX keeps; all nodes' values would be summed, and only node 1 has traffic.
import { apiError } from '../../plugins/errors.ts';
import type { StoreContext } from '../context.ts';
import { rfc3339 } from '../../lib/time.ts';
import { topicNameProblem } from '../../lib/topic.ts';

/** emqx_topic_metrics' ?MAX_TOPICS. */
export const MAX_TOPIC_METRICS = 512;

/** A registered topic as persisted (the config holds `[{topic}]`; the time is ours). */
export interface TopicMetricRecord {
  topic: string;
  create_time: number;
}

const COUNTERS = [
  'messages.in', 'messages.out', 'messages.dropped',
  'messages.qos0.in', 'messages.qos0.out', 'messages.qos1.in', 'messages.qos1.out', 'messages.qos2.in', 'messages.qos2.out',
] as const;
type Counter = (typeof COUNTERS)[number];

const IN: readonly Counter[] = ['messages.qos0.in', 'messages.qos1.in', 'messages.qos2.in'];
const OUT: readonly Counter[] = ['messages.qos0.out', 'messages.qos1.out', 'messages.qos2.out'];

/** Time constant of the rate's exponential moving average, in seconds. */
const TAU_S = 5;

/**
 * A counter and its smoothed per-second rate (an exponential moving average over `tauS` seconds):
 * two numbers and an exponent per message.
 */
export class Meter {
  count = 0;
  private rate = 0;
  private at = 0;

  constructor(private readonly tauS = TAU_S) {}

  mark(now: number): void {
    this.rate = this.rateAt(now) + 1 / this.tauS;
    this.at = now;
    this.count++;
  }

  rateAt(now: number): number {
    if (this.rate === 0) return 0;
    return this.rate * Math.exp(-Math.max(0, now - this.at) / 1000 / this.tauS);
  }
}

interface TopicCounters {
  record: TopicMetricRecord;
  reset_time?: number;
  meters: Record<Counter, Meter>;
}

function meters(): Record<Counter, Meter> {
  return Object.fromEntries(COUNTERS.map((c) => [c, new Meter()])) as Record<Counter, Meter>;
}

export interface TopicMetricView {
  topic: string;
  create_time: string;
  reset_time?: string;
  metrics: Record<string, number>;
}

export class TopicMetrics {
  /** Live counters by topic; the tap's one lookup per message. */
  private readonly live = new Map<string, TopicCounters>();

  constructor(private readonly ctx: StoreContext) {
    for (const record of this.records) this.live.set(record.topic, { record, meters: meters() });
    // A replaced state: its records, keeping the counters of topics still there.
    ctx.onStateReplaced(() => {
      const before = new Map(this.live);
      this.live.clear();
      for (const record of this.records) this.live.set(record.topic, { ...before.get(record.topic), record, meters: before.get(record.topic)?.meters ?? meters() });
    });
  }

  private get records(): TopicMetricRecord[] {
    return (this.ctx.state.topic_metrics ??= []);
  }

  private find(topic: string): TopicCounters {
    const found = this.live.get(topic);
    if (!found) throw apiError(404, 'TOPIC_NOT_FOUND', 'Topic not found');
    return found;
  }

  private view(entry: TopicCounters, now: number): TopicMetricView {
    const metrics: Record<string, number> = {};
    for (const name of COUNTERS) {
      const meter = entry.meters[name];
      metrics[`${name}.count`] = meter.count;
      metrics[`${name}.rate`] = Math.round(meter.rateAt(now) * 10_000) / 10_000;
    }
    return {
      topic: entry.record.topic,
      create_time: rfc3339(entry.record.create_time),
      ...(entry.reset_time === undefined ? {} : { reset_time: rfc3339(entry.reset_time) }),
      metrics,
    };
  }

  list(): TopicMetricView[] {
    const now = this.ctx.clock.now();
    return [...this.live.values()].map((entry) => this.view(entry, now));
  }

  get(topic: string): TopicMetricView {
    return this.view(this.find(topic), this.ctx.clock.now());
  }

  /** POST /mqtt/topic_metrics with EMQX's codes and messages. */
  async add(topic: string): Promise<TopicMetricView> {
    if (topic === '') throw apiError(400, 'BAD_REQUEST', 'Topic can not be empty');
    if (topic.includes('+') || topic.includes('#')) throw apiError(400, 'BAD_TOPIC', 'Wildcard topic is not supported');
    const problem = topicNameProblem(topic);
    if (problem) throw apiError(400, 'BAD_TOPIC', `Invalid topic: ${problem}`);
    if (this.live.has(topic)) throw apiError(400, 'BAD_TOPIC', 'Topic already registered');
    if (this.live.size >= MAX_TOPIC_METRICS) throw apiError(409, 'EXCEED_LIMIT', `Max topic metrics count is ${MAX_TOPIC_METRICS}`);
    const record = { topic, create_time: this.ctx.clock.now() };
    this.records.push(record);
    const entry = { record, meters: meters() };
    this.live.set(topic, entry);
    await this.ctx.persist();
    return this.view(entry, record.create_time);
  }

  async remove(topic: string): Promise<void> {
    const entry = this.find(topic);
    this.live.delete(topic);
    this.ctx.state.topic_metrics = this.records.filter((r) => r !== entry.record);
    await this.ctx.persist();
  }

  /** PUT {action: reset}: one topic (its view) or all (every view). */
  reset(topic?: string): TopicMetricView | TopicMetricView[] {
    const now = this.ctx.clock.now();
    const entries = topic === undefined ? [...this.live.values()] : [this.find(topic)];
    for (const entry of entries) {
      entry.meters = meters();
      entry.reset_time = now;
    }
    const views = entries.map((entry) => this.view(entry, now));
    return topic === undefined ? views : views[0];
  }

  /** Whether `topic` is registered (the taps ask before reading the clock). */
  has(topic: string): boolean {
    return this.live.has(topic);
  }

  /** Tap: a message published to `topic` at `qos`; `dropped` when nobody subscribes. */
  published(topic: string, qos: number, dropped: boolean, now: number): void {
    const entry = this.live.get(topic);
    if (!entry) return;
    entry.meters['messages.in'].mark(now);
    entry.meters[IN[qos] ?? IN[0]].mark(now);
    if (dropped) entry.meters['messages.dropped'].mark(now);
  }

  /** Tap: one delivery of a message on `topic` at the delivered `qos`. */
  delivered(topic: string, qos: number, now: number): void {
    const entry = this.live.get(topic);
    if (!entry) return;
    entry.meters['messages.out'].mark(now);
    entry.meters[OUT[qos] ?? OUT[0]].mark(now);
  }

  /** Whether any topic is registered (lets the tap skip its lookup). */
  get size(): number {
    return this.live.size;
  }
}
