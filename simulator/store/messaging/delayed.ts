// Delayed publish (emqx_delayed, emqx_delayed_api): the persisted settings (enable,
// max_delayed_messages) and the messages held until their time, ordered by when they are due.
// The broker (broker/delayed.ts) holds and releases them; this module only keeps them. Held
// messages live in memory, so a restart drops them (EMQX keeps them in a disc table).
import { apiError } from '../../plugins/errors.ts';
import type { StoreContext } from '../context.ts';
import { messageId } from './mqtt.ts';
import { paginate, type PageEnvelope, type PageQuery } from '../pagination.ts';
import { rfc3339 } from '../../lib/time.ts';

export interface DelayedConfig {
  enable: boolean;
  /** 0 means no limit. */
  max_delayed_messages: number;
}

export const DEFAULT_DELAYED: DelayedConfig = { enable: true, max_delayed_messages: 0 };

/** Delays at or above this many seconds are read as a Unix time to publish at (?MAX_INTERVAL). */
export const MAX_INTERVAL = 4294967;

/** The single-message answer leaves payloads above this out (?MAX_PAYLOAD_LENGTH). */
export const MAX_SHOWN_PAYLOAD = 2048;

export interface DelayedMessage {
  msgid: string;
  node: string;
  /** Epoch ms the message arrived. */
  publishAt: number;
  /** The delay as the topic gave it, in seconds. */
  interval: number;
  /** Epoch ms it is due. */
  expectedAt: number;
  /** The destination topic (without `$delayed/{n}/`). */
  topic: string;
  qos: number;
  retain: boolean;
  payload: Buffer;
  properties?: unknown;
  from_clientid: string | null;
  from_username: string | null;
}

/** The list item of GET /mqtt/delayed/messages (§16). */
export interface DelayedView {
  msgid: string;
  node: string;
  publish_at: string;
  delayed_interval: number;
  delayed_remaining: number;
  expected_at: string;
  topic: string;
  qos: number;
  from_clientid: string | null;
  from_username: string | null;
}

/**
 * Reads `$delayed/{seconds}/{topic}` the way on_message_publish/1 does: a delay below
 * MAX_INTERVAL is seconds from now, a larger one a Unix time in seconds. Null for a topic it
 * cannot read (EMQX's hook crashes on those and the message goes on unchanged).
 */
export function parseDelayedTopic(topic: string, now: number): { topic: string; interval: number; expectedAt: number } | null {
  const match = /^\$delayed\/([+-]?\d+)\/(.+)$/s.exec(topic);
  if (!match) return null;
  const delay = Number(match[1]);
  if (!Number.isSafeInteger(delay)) return null;
  if (delay < MAX_INTERVAL) return { topic: match[2], interval: delay, expectedAt: now + delay * 1000 };
  const interval = delay - Math.round(now / 1000);
  // "Check malicious timestamp": a time further away than the largest delay is refused.
  if (interval > MAX_INTERVAL) return null;
  return { topic: match[2], interval, expectedAt: delay * 1000 };
}

export class Delayed {
  // Sorted by expectedAt, then arrival (EMQX's ordered_set key is {PubAt, Id}).
  private readonly messages: DelayedMessage[] = [];
  private watcher: () => void = () => {};

  constructor(private readonly ctx: StoreContext) {}

  config(): DelayedConfig {
    return { ...DEFAULT_DELAYED, ...this.ctx.state.delayed };
  }

  /** Updates the settings (a partial body keeps the rest); disabling deletes every held message. */
  async configure(patch: Partial<DelayedConfig>): Promise<DelayedConfig> {
    if (patch.max_delayed_messages !== undefined && patch.max_delayed_messages < 0) {
      throw apiError(400, 'BAD_REQUEST', 'Max delayed must be equal or greater than 0');
    }
    const next = { ...this.config(), ...patch };
    this.ctx.state.delayed = next;
    await this.ctx.persist();
    // do_load_or_unload(false, …) empties the table.
    if (!next.enable) this.clear();
    return next;
  }

  get size(): number {
    return this.messages.length;
  }

  /** Calls `fn` whenever what is due next may have changed (the broker re-arms its timer). */
  watch(fn: () => void): void {
    this.watcher = fn;
  }

  /** Asks the watcher to look again, e.g. after a test moved its clock. */
  wake(): void {
    this.watcher();
  }

  /** Keeps a message; null when max_delayed_messages is reached (the message is dropped). */
  hold(message: Omit<DelayedMessage, 'msgid'>): DelayedMessage | null {
    const max = this.config().max_delayed_messages;
    if (max > 0 && this.messages.length >= max) return null;
    const held = { ...message, msgid: messageId(message.publishAt) };
    let i = this.messages.length;
    while (i > 0 && this.messages[i - 1].expectedAt > held.expectedAt) i--;
    this.messages.splice(i, 0, held);
    this.watcher();
    return held;
  }

  /** When the next message is due (epoch ms), or undefined when none is held. */
  nextDue(): number | undefined {
    return this.messages[0]?.expectedAt;
  }

  /** Removes and returns every message due at `now`, earliest first. */
  takeDue(now: number): DelayedMessage[] {
    let n = 0;
    while (n < this.messages.length && this.messages[n].expectedAt <= now) n++;
    return this.messages.splice(0, n);
  }

  list(query: PageQuery, now: number): PageEnvelope<DelayedView> {
    return paginate(this.messages.map((m) => view(m, now)), query);
  }

  get(msgid: string): DelayedMessage | undefined {
    const id = msgid.toUpperCase();
    return this.messages.find((m) => m.msgid === id);
  }

  remove(msgid: string): boolean {
    const message = this.get(msgid);
    if (!message) return false;
    this.messages.splice(this.messages.indexOf(message), 1);
    this.watcher();
    return true;
  }

  /** Removes every message for a destination topic; false when there was none. */
  removeByTopic(topic: string): boolean {
    const before = this.messages.length;
    for (let i = this.messages.length - 1; i >= 0; i--) if (this.messages[i].topic === topic) this.messages.splice(i, 1);
    if (this.messages.length === before) return false;
    this.watcher();
    return true;
  }

  clear(): void {
    this.messages.splice(0);
    this.watcher();
  }
}

/** The §16 item; the remaining seconds are truncated like `RemainingTime div 1000`, never below 0. */
export function view(m: DelayedMessage, now: number): DelayedView {
  return {
    msgid: m.msgid,
    node: m.node,
    publish_at: rfc3339(m.publishAt, 'ms'),
    delayed_interval: m.interval,
    delayed_remaining: Math.max(0, Math.trunc((m.expectedAt - now) / 1000)),
    expected_at: rfc3339(m.expectedAt, 'ms'),
    topic: m.topic,
    qos: m.qos,
    from_clientid: m.from_clientid,
    from_username: m.from_username,
  };
}
