/**
 * A bounded list of MQTT messages kept outside valtio (thousands of messages a second must not be
 * proxied): a ring buffer holding the newest `capacity` messages and at most `maxBytes` of
 * payload. Payloads over 1 MB are never rendered, so only their size is kept.
 */
import { PAYLOAD_VIEW_LIMIT } from '../../../ui/PayloadView.tsx';

export interface LoggedMessage {
  id: number;
  topic: string;
  qos: 0 | 1 | 2;
  retain: boolean;
  /** Epoch milliseconds when it arrived or was sent. */
  time: number;
  /** The bytes, or null when they were over the view limit and dropped. */
  payload: Uint8Array | null;
  size: number;
  /** MQTT 5 properties as [label key, text] pairs, when the message had any. */
  props?: [string, string][];
}

/** Newest messages kept per list (DESIGN.md §6: the console's heap stays small). */
export const LOG_CAPACITY = 10_000;
/** Payload bytes kept per list. */
export const LOG_MAX_BYTES = 64 * 1024 * 1024;

let nextId = 1;

export class MessageLog {
  private ring: (LoggedMessage | undefined)[];
  private start = 0;
  private count = 0;
  private bytes = 0;

  constructor(readonly capacity = LOG_CAPACITY, readonly maxBytes = LOG_MAX_BYTES) {
    this.ring = new Array(capacity);
  }

  get length() {
    return this.count;
  }

  /** Appends a message, evicting the oldest ones past the count or byte bound. */
  push(message: Omit<LoggedMessage, 'id' | 'size' | 'payload'> & { payload: Uint8Array }): LoggedMessage {
    const size = message.payload.length;
    // A copy: mqtt.js hands out views into its read buffers, which would keep those alive.
    const kept: LoggedMessage = { ...message, id: nextId++, size, payload: size > PAYLOAD_VIEW_LIMIT ? null : new Uint8Array(message.payload) };
    if (this.count === this.capacity) this.dropOldest();
    this.ring[(this.start + this.count) % this.capacity] = kept;
    this.count += 1;
    this.bytes += kept.payload?.length ?? 0;
    while (this.bytes > this.maxBytes && this.count > 1) this.dropOldest();
    return kept;
  }

  /** The `index`-th newest message (0 is the newest). */
  newest(index: number): LoggedMessage | undefined {
    if (index < 0 || index >= this.count) return undefined;
    return this.ring[(this.start + this.count - 1 - index) % this.capacity];
  }

  clear() {
    this.ring = new Array(this.capacity);
    this.start = 0;
    this.count = 0;
    this.bytes = 0;
  }

  private dropOldest() {
    const oldest = this.ring[this.start];
    this.bytes -= oldest?.payload?.length ?? 0;
    this.ring[this.start] = undefined;
    this.start = (this.start + 1) % this.capacity;
    this.count -= 1;
  }
}
