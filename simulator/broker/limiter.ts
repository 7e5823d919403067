// The rate limiter of 5.10 and later (emqx_limiter.erl at e5.10.4 and 6.2.2): token buckets for
// new connections (`max_conn`), received messages (`messages`) and received payload bytes
// (`bytes`), configured by the flat `<name>_rate` / `<name>_burst` fields of a listener and of the
// zone's `mqtt.limiter`.
//
// Which bucket is whose (emqx_limiter.erl create_listener_limiters/2, create_limiters_for_zone/2,
// create_channel_limiter/3):
// - the zone's limiters are one *shared* group: every client of the zone draws on the same bucket;
// - a listener's `max_conn` is shared by the connections the listener accepts;
// - a listener's `messages` and `bytes` are *exclusive*: each connection gets its own bucket.
// A connection consumes from the zone's bucket first, then from the listener's (emqx_limiter_composite.erl);
// a PUBLISH consumes its payload's bytes, then one message (emqx_channel.erl check_quota_exceeded/2),
// and what a later bucket refuses is put back into the earlier ones.
//
// Over the rate (emqx_channel.erl process_publish/2, the first step of the pipeline, before topic
// aliases and authorization): a QoS 0 message is dropped and counted, a QoS 1 one is answered PUBACK
// 0x97 (Quota Exceeded), a QoS 2 one PUBREC 0x97; nothing is routed and the connection stays. A
// connection over `max_conn_rate` is closed at once, before it speaks MQTT (esockd_acceptor.erl at
// esockd 5.14.0 / esockd_acceptor_fsm.erl at 5.16.3 handle_accepted: `close`, counted
// rate_limited); the ws listener is limited from 6.x on (emqx_ranch_limiter.erl at 6.2.2; at
// e5.10.4 only tcp/ssl listeners get a limiter, emqx_listeners.erl esockd_opts/4).
//
// Settings are read at each consumption (emqx_limiter_registry), so a change applies to the
// connections already open; a shared group whose settings changed starts again full
// (emqx_limiter_shared.erl update_group/2 resets its buckets).
import type { Socket } from 'node:net';
import type { Aedes, Client } from 'aedes';
import type { Metrics } from '../store/cluster/metrics.ts';
import type { Store } from '../store/index.ts';
import { WIRE } from '../store/profile.ts';
import { listenerOfSocket } from '../store/config/listeners.ts';
import { brokerHooks, type ParsedPacket } from './hooks.ts';
import { mqttZone } from './mqtt-limits.ts';
import { RC_QUOTA_EXCEEDED } from './reason-codes.ts';
import { writePacket } from './session-queue.ts';

type Name = 'max_conn' | 'messages' | 'bytes';

/** A limiter's settings (emqx_limiter.erl options()): capacity Infinity is unlimited. */
export interface LimiterOptions {
  capacity: number;
  /** ms */
  interval: number;
  /** 0: no burst. */
  burstCapacity: number;
  burstInterval: number;
}

const UNLIMITED: LimiterOptions = { capacity: Infinity, interval: 1000, burstCapacity: 0, burstInterval: 0 };

const KB = 1024;
const UNIT: Record<string, number> = { '': 1, b: 1, kb: KB, mb: KB * KB, gb: KB * KB * KB };
const MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A rate or burst as emqx_limiter_schema.erl parse_rate/1 reads it: `infinity`, or a capacity with
 * an optional byte unit and an optional `/<n><unit>` window (`10`, `10MB`, `1000/10s`); null when
 * it does not parse or the window is 0.
 */
export function parseRate(text: unknown): { capacity: number; interval: number } | 'infinity' | null {
  if (typeof text !== 'string') return null;
  const s = text.trim().toLowerCase();
  if (s === 'infinity') return 'infinity';
  const m = /^(\d+)(kb|mb|gb|b|)(?:\/(\d*)(ms|s|m|h|d))?$/.exec(s);
  if (!m) return null;
  const interval = (m[3] ? Number(m[3]) : 1) * MS[m[4] ?? 's'];
  return interval > 0 ? { capacity: Number(m[1]) * UNIT[m[2]], interval } : null;
}

/**
 * The options of limiter `name` from a config with `<name>_rate` / `<name>_burst` keys
 * (emqx_limiter.erl config/2): no rate is unlimited; a burst grants `burst + rate capacity`
 * tokens once per its window.
 */
export function limiterOptions(name: Name, config: Record<string, unknown> | undefined): LimiterOptions {
  const rate = parseRate(config?.[`${name}_rate`]);
  if (rate === null || rate === 'infinity') return UNLIMITED;
  const burst = parseRate(config?.[`${name}_burst`]);
  if (burst === null || burst === 'infinity') return { ...rate, burstCapacity: 0, burstInterval: 0 };
  return { ...rate, burstCapacity: burst.capacity + rate.capacity, burstInterval: burst.interval };
}

// ---- Exclusive buckets (one per connection) ---------------------------------------------------

interface Exclusive {
  tokens: number;
  burstTokens: number;
  lastTime: number;
  lastBurstTime: number;
}

/**
 * emqx_limiter_exclusive.erl connect/1. At e5.10.4 the bucket starts with capacity plus burst,
 * refilled from the connect time on; at 6.2.2 it starts empty with both clocks one window back,
 * so the first consumption refills it and may take a burst at once.
 */
function exclusiveBucket(options: LimiterOptions, now: number, separateBurst: boolean): Exclusive {
  if (!separateBurst) return { tokens: options.capacity === Infinity ? 0 : options.capacity + options.burstCapacity, burstTokens: 0, lastTime: now, lastBurstTime: now };
  const limited = options.capacity !== Infinity;
  return {
    tokens: 0, burstTokens: 0,
    lastTime: limited ? now - options.interval - 1 : now,
    lastBurstTime: limited && options.burstCapacity > 0 ? now - options.burstInterval - 1 : now,
  };
}

/** emqx_limiter_exclusive.erl try_consume/3 (the release's variant): a refill only after a whole window. */
function consumeExclusive(b: Exclusive, o: LimiterOptions, amount: number, now: number, separateBurst: boolean): boolean {
  if (o.capacity === Infinity) return true;
  const take = () => {
    const fromBurst = Math.min(amount, b.burstTokens);
    b.burstTokens -= fromBurst;
    b.tokens -= amount - fromBurst;
    return true;
  };
  if (amount <= b.tokens + b.burstTokens) return take();
  if (now >= b.lastTime + o.interval) {
    b.tokens = Math.min(o.capacity, b.tokens + (o.capacity * (now - b.lastTime)) / o.interval);
    b.lastTime = now;
    if (amount <= b.tokens + b.burstTokens) return take();
  }
  if (o.burstCapacity === 0 || now < b.lastBurstTime + o.burstInterval) return false;
  b.lastBurstTime = now;
  // e5.10.4 fills the bucket to capacity + burst; 6.2.2 grants the burst as tokens of its own.
  if (separateBurst) b.burstTokens = o.burstCapacity;
  else b.tokens = o.capacity + o.burstCapacity;
  return amount <= b.tokens + b.burstTokens ? take() : false;
}

// ---- Shared buckets (the zone's, a listener's max_conn) ---------------------------------------

interface Shared {
  options: LimiterOptions;
  /** The bucket's clock: tokens are the time since it, at capacity/interval, at most one window. */
  lastTime: number;
  burstTokens: number;
  lastBurstTime: number;
}

/** emqx_limiter_shared.erl init_bucket/3: full, and its burst granted. */
function sharedBucket(options: LimiterOptions, now: number): Shared {
  return { options, lastTime: now - options.interval, burstTokens: options.burstCapacity, lastBurstTime: now };
}

/** emqx_limiter_shared.erl advance_last_time/4: the tokens as time passed since the bucket's clock. */
function consumeRegular(b: Shared, amount: number, now: number): boolean {
  const o = b.options;
  const required = (amount * o.interval) / o.capacity;
  if (now - b.lastTime < required) return false;
  b.lastTime = required + Math.max(b.lastTime, now - o.interval);
  return true;
}

/** emqx_limiter_shared.erl try_consume/5: burst tokens left, then regular ones, then a new burst once per window. */
function consumeShared(b: Shared, amount: number, now: number): boolean {
  const o = b.options;
  if (o.capacity === Infinity) return true;
  if (o.burstCapacity === 0) return consumeRegular(b, amount, now);
  // atomic_sub_get: a failed take leaves the count below zero until the next burst.
  b.burstTokens -= amount;
  if (b.burstTokens >= 0) return true;
  if (consumeRegular(b, amount, now)) return true;
  if (now < b.lastBurstTime + o.burstInterval) return false;
  b.burstTokens = o.burstCapacity;
  b.lastBurstTime = now;
  return consumeShared(b, amount, now);
}

/** emqx_limiter_shared.erl put_back/2: the clock goes back by the tokens' time. */
function putBackShared(b: Shared, amount: number): void {
  if (b.options.capacity !== Infinity) b.lastTime -= (amount * b.options.interval) / b.options.capacity;
}

/** A group of shared buckets (the zone, or one listener's max_conn), reset when its settings change. */
class SharedGroup {
  private source: object | null = null;
  private signature = '';
  private buckets = new Map<Name, Shared>();

  bucket(name: Name, all: Record<Name, LimiterOptions>, now: number): Shared {
    // Read for every PUBLISH: the same options object means the same settings; only another
    // object is compared by value.
    if (all !== this.source) {
      this.source = all;
      const signature = JSON.stringify(all);
      if (signature !== this.signature) {
        // emqx_limiter.erl update_group/2: unchanged settings leave the buckets as they are.
        this.signature = signature;
        this.buckets = new Map((Object.keys(all) as Name[]).map((n) => [n, sharedBucket(all[n], now)]));
      }
    }
    return this.buckets.get(name) as Shared;
  }
}

// ---- The broker's limiters --------------------------------------------------------------------

type Config = Record<string, unknown> | undefined;

const NAMES: Name[] = ['max_conn', 'messages', 'bytes'];
const optionsOf = (config: Config) => Object.fromEntries(NAMES.map((n) => [n, limiterOptions(n, config)])) as Record<Name, LimiterOptions>;

/** The options of a config object, computed again only when the object is replaced. */
const parsed = new WeakMap<object, Record<Name, LimiterOptions>>();
const NONE = optionsOf(undefined);
function cachedOptions(config: Config): Record<Name, LimiterOptions> {
  if (!config) return NONE;
  let options = parsed.get(config);
  if (!options) {
    options = optionsOf(config);
    parsed.set(config, options);
  }
  return options;
}

/** Whether a set of options limits neither messages nor bytes. */
const unlimited = (options: Record<Name, LimiterOptions>) => options.messages.capacity === Infinity && options.bytes.capacity === Infinity;

interface Channel {
  listener: string;
  messages: Exclusive | null;
  bytes: Exclusive | null;
}

/** Installs the connection, message and byte limits (on releases that have them). */
export function installLimiter(broker: Aedes, store: Store): { admit(socket: Socket, websocket: boolean): boolean } {
  const profile = store.profile;
  if (!profile.feature('channelQuota')) return { admit: () => true };
  const separateBurst = WIRE.separateBurstTokens(profile);
  const metrics = store.mqtt.metrics as Metrics & Record<string, number>;
  const zone = new SharedGroup();
  const listenerGroups = new Map<string, SharedGroup>();
  const channels = new WeakMap<Client, Channel>();

  // The zone's settings as mqtt-limits.ts caches them: one object until the zone is written.
  const zoneOptions = () => cachedOptions((mqttZone(store) as { limiter?: Config }).limiter);
  const listenerConfig = (id: string) => store.listeners.config(id);

  /** A new connection on `socket`: false when a max_conn bucket (the zone's, then the listener's) is empty. */
  const admit = (socket: Socket, websocket: boolean): boolean => {
    if (websocket && !WIRE.websocketConnRate(profile)) return true;
    const id = listenerOfSocket(socket) ?? (websocket ? 'ws:default' : 'tcp:default');
    const now = performance.now();
    const zoneBucket = zone.bucket('max_conn', zoneOptions(), now);
    if (!consumeShared(zoneBucket, 1, now)) return false;
    let group = listenerGroups.get(id);
    if (!group) listenerGroups.set(id, (group = new SharedGroup()));
    const options = cachedOptions(listenerConfig(id));
    if (consumeShared(group.bucket('max_conn', { max_conn: options.max_conn } as Record<Name, LimiterOptions>, now), 1, now)) return true;
    putBackShared(zoneBucket, 1);
    return false;
  };

  const channelOf = (client: Client, now: number): Channel => {
    let channel = channels.get(client);
    if (!channel) {
      const c = client as unknown as { req?: { socket: Socket }; conn: Socket };
      const socket = c.req ? c.req.socket : c.conn;
      const listener = listenerOfSocket(socket) ?? (c.req ? 'ws:default' : 'tcp:default');
      const options = cachedOptions(listenerConfig(listener));
      channel = { listener, messages: exclusiveBucket(options.messages, now, separateBurst), bytes: exclusiveBucket(options.bytes, now, separateBurst) };
      channels.set(client, channel);
    }
    return channel;
  };

  // emqx_limiter_client_container.erl try_consume/2: bytes, then messages; each zone, then channel.
  const consume = (client: Client, payloadBytes: number): boolean => {
    const zoneAll = zoneOptions();
    const known = channels.get(client);
    // Neither the zone nor the listener limits messages or bytes (the default): no bucket to draw on.
    if (known && unlimited(zoneAll) && unlimited(cachedOptions(listenerConfig(known.listener)))) return true;
    const now = performance.now();
    const channel = known ?? channelOf(client, now);
    const own = cachedOptions(listenerConfig(channel.listener));
    const zoneBytes = zone.bucket('bytes', zoneAll, now);
    if (!consumeShared(zoneBytes, payloadBytes, now)) return false;
    const bytes = channel.bytes as Exclusive;
    if (!consumeExclusive(bytes, own.bytes, payloadBytes, now, separateBurst)) {
      putBackShared(zoneBytes, payloadBytes);
      return false;
    }
    const zoneMessages = zone.bucket('messages', zoneAll, now);
    const messages = channel.messages as Exclusive;
    if (consumeShared(zoneMessages, 1, now)) {
      if (consumeExclusive(messages, own.messages, 1, now, separateBurst)) return true;
      putBackShared(zoneMessages, 1);
    }
    putBackShared(zoneBytes, payloadBytes);
    if (own.bytes.capacity !== Infinity) bytes.tokens += payloadBytes;
    return false;
  };

  // Connected first: the CONNECT handling made the client's channel (emqx_channel init/2).
  broker.on('client', (client) => {
    channelOf(client, performance.now());
  });

  brokerHooks(broker).received.add('limiter', (client, packet: ParsedPacket) => {
    if (packet.cmd !== 'publish') return false;
    const payload = packet.payload as Buffer | string | undefined;
    const size = payload === undefined ? 0 : Buffer.isBuffer(payload) ? payload.length : Buffer.byteLength(payload);
    if (consume(client, size)) return false;
    metrics['packets.publish.quota_exceeded']++;
    const qos = (packet.qos as number | undefined) ?? 0;
    if (qos === 0) {
      metrics['messages.dropped']++;
      metrics['messages.dropped.quota_exceeded']++;
    } else {
      writePacket(client, { cmd: qos === 1 ? 'puback' : 'pubrec', messageId: packet.messageId, reasonCode: RC_QUOTA_EXCEEDED });
    }
    return true;
  });

  return { admit };
}
