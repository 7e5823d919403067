// A session's message queue (emqx_mqueue.erl, v5.5.1): messages waiting for a free slot of the
// inflight window or for the client to come back, oldest first. A full queue makes room by
// dropping its oldest message; QoS 0 messages are only taken when `store_qos0` is on. Priorities
// (`mqueue_priorities`, off by default) are not modelled: every message has priority 0.

/** A message waiting in a session, already adapted to the subscription that matched it. */
export interface SessionMessage {
  topic: string;
  payload: Buffer;
  /** The QoS it is delivered with (the subscription's, see emqx_session.erl enrich_subopts). */
  qos: number;
  retain: boolean;
  /** MQTT 5 properties as delivered (subscription identifier included); shared, never changed. */
  properties: Record<string, unknown> | undefined;
  /** The publisher, when a client published it. */
  clientId: string | undefined;
  /** Aedes' numbering of the published message (one per publish, shared by its deliveries). */
  brokerId: string | undefined;
  brokerCounter: number;
  /** Absolute MQTT 5 message expiry (epoch ms), when the publisher set an interval. */
  messageExpiry: number | undefined;
  /** When the broker received it, epoch ms. */
  publishedAt: number;
  /** When it entered the queue, epoch µs (strictly increasing: the API's paging position). */
  insertedUs: number;
  /** The packet as it was routed to the session, when it came while connected: the delivery hooks see it again when it leaves. */
  source: object | undefined;
}

let lastUs = 0;

/** A strictly increasing epoch time in µs, for insertion order that survives equal clocks. */
export function insertionTime(nowMs: number): number {
  let us = nowMs * 1000;
  if (us <= lastUs) us = lastUs + 1;
  lastUs = us;
  return us;
}

/** Bounded FIFO over an array with a moving head (no per-message allocation but the entry). */
export class MQueue {
  private items: (SessionMessage | undefined)[] = [];
  private head = 0;
  /** Messages dropped to make room (the session's `mqueue_dropped`). */
  dropped = 0;

  constructor(
    /** 0 = unbounded, as emqx_mqueue's MAX_LEN_INFINITY. */
    readonly maxLen: number,
    readonly storeQos0: boolean,
  ) {}

  get length(): number {
    return this.items.length - this.head;
  }

  /**
   * emqx_mqueue:in/2: appends; returns what had to go: the message itself (QoS 0 while
   * `store_qos0` is off, not counted in `dropped`), the oldest one (queue full), or null.
   */
  in(message: SessionMessage, force = false): SessionMessage | null {
    if (message.qos === 0 && !this.storeQos0 && !force) return message;
    let out: SessionMessage | null = null;
    if (this.maxLen > 0 && this.length >= this.maxLen) {
      out = this.out();
      this.dropped++;
    }
    this.items.push(message);
    return out;
  }

  peek(): SessionMessage | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  out(): SessionMessage | null {
    if (this.head >= this.items.length) return null;
    const message = this.items[this.head] as SessionMessage;
    this.items[this.head] = undefined;
    this.head++;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return message;
  }

  /** The queued messages in delivery order (a copy). */
  toArray(): SessionMessage[] {
    return this.items.slice(this.head) as SessionMessage[];
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
