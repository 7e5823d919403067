// Generated MQTT sessions for the fuzzer (security.md M5): from one seed, each session opens a
// connection (TCP or WebSocket) and writes a sequence of one shape — valid traffic, truncated
// packets, duplicated properties, acknowledgements out of order, floods past every zone limit,
// mutated and random bytes — at MQTT 3.1.1 or 5, answering the broker's QoS 1/2 deliveries as a
// client would when the shape is a valid one. Everything stays on loopback and every session ends.
import net from 'node:net';
import WebSocket from 'ws';
import { connectPacket, disconnectPacket, publishPacket, subscribePacket, ackPacket, PUBACK, PUBREC, PUBREL, PUBCOMP, type Version } from './raw-mqtt.ts';
import { frame, mqttString, u16, type Property } from './wire.ts';

export { seededRandom as random } from '../../simulator/lib/random.ts';

type Rng = () => number;
const int = (rng: Rng, n: number) => Math.floor(rng() * n);
const pick = <T>(rng: Rng, list: readonly T[]): T => list[int(rng, list.length)];

export const SHAPES = [
  'valid', 'truncated', 'duplicated-properties', 'out-of-order-acks', 'flood-awaiting-rel', 'flood-inflight',
  'flood-aliases', 'flood-packet-size', 'flood-subscriptions', 'takeover', 'mutated', 'random-bytes', 'header-flags',
] as const;
export type Shape = (typeof SHAPES)[number];

/** What a run sent, for the report. */
export interface FuzzStats {
  sessions: number;
  packets: number;
  bytes: number;
  shapes: Record<string, number>;
  transports: { tcp: number; ws: number };
}

export function emptyStats(): FuzzStats {
  return { sessions: 0, packets: 0, bytes: 0, shapes: Object.fromEntries(SHAPES.map((s) => [s, 0])), transports: { tcp: 0, ws: 0 } };
}

const LEVELS = ['a', 'b', 'fz', '$SYS', '+', '#', '', 'x'.repeat(40), 'ü', 'secret'];

function topic(rng: Rng): string {
  const depth = 1 + int(rng, 4);
  const parts = Array.from({ length: depth }, () => pick(rng, LEVELS.filter((l) => l !== '+' && l !== '#')));
  return `fz/${parts.join('/')}`;
}

function filter(rng: Rng): string {
  const base = Array.from({ length: 1 + int(rng, 3) }, () => pick(rng, LEVELS)).join('/');
  const roll = rng();
  if (roll < 0.15) return `$share/g${int(rng, 3)}/fz/${base}`;
  if (roll < 0.2) return `$queue/fz/${base}`;
  if (roll < 0.25) return `$delayed/${int(rng, 3)}/fz/${base}`;
  return rng() < 0.1 ? base : `fz/${base}`;
}

function properties(rng: Rng, kind: 'connect' | 'publish' | 'subscribe' | 'disconnect', duplicate: boolean): Property[] {
  const pool: Property[] = {
    connect: [[0x11, int(rng, 30)], [0x21, 1 + int(rng, 100)], [0x22, int(rng, 20)], [0x27, 64 + int(rng, 100_000)], [0x17, int(rng, 2)], [0x19, int(rng, 2)], [0x26, ['k', 'v']]] as Property[],
    publish: [[0x01, int(rng, 2)], [0x02, int(rng, 100)], [0x03, 'text/plain'], [0x08, `fz/reply/${int(rng, 5)}`], [0x09, Buffer.from('corr')], [0x26, [`k${int(rng, 3)}`, `v${int(rng, 9)}`]], [0x23, 1 + int(rng, 30)]] as Property[],
    subscribe: [[0x0b, 1 + int(rng, 1000)], [0x26, ['s', '1']]] as Property[],
    disconnect: [[0x11, int(rng, 20)], [0x1f, 'bye'], [0x26, ['d', '1']]] as Property[],
  }[kind];
  const list = pool.filter(() => rng() < 0.35);
  if (duplicate && list.length > 0) for (let i = int(rng, 3) + 1; i > 0; i--) list.push(pick(rng, list));
  return list;
}

function connect(rng: Rng, version: Version, clientId: string, duplicate = false): Buffer {
  const will = rng() < 0.2 ? { topic: rng() < 0.8 ? topic(rng) : 'fz/+/bad', payload: 'gone', qos: int(rng, 3), retain: rng() < 0.3, properties: version === 5 ? properties(rng, 'publish', duplicate).filter(([id]) => id !== 0x23) : undefined } : undefined;
  return connectPacket({ version, clientId, clean: rng() < 0.8, keepalive: int(rng, 3) === 0 ? 0 : 30, properties: version === 5 ? properties(rng, 'connect', duplicate) : undefined, will });
}

function publish(rng: Rng, version: Version, id: number, duplicate = false): Buffer {
  const qos = pick(rng, [0, 0, 1, 1, 2]);
  const size = rng() < 0.05 ? 20_000 + int(rng, 40_000) : int(rng, 200);
  return publishPacket({ version, topic: topic(rng), qos, id, retain: rng() < 0.1, dup: rng() < 0.05, properties: version === 5 ? properties(rng, 'publish', duplicate) : undefined, payload: Buffer.alloc(size, 0x61) });
}

/** One session's packets; `id` numbers the session for client ids. */
function packets(rng: Rng, version: Version, shape: Shape, id: number): Buffer[] {
  const clientId = `fz-${version}-${id % 40}`;
  const out: Buffer[] = [];
  const valid = () => {
    const n = 5 + int(rng, 40);
    for (let i = 0; i < n; i++) {
      const roll = rng();
      if (roll < 0.55) out.push(publish(rng, version, 1 + int(rng, 65535)));
      else if (roll < 0.75) out.push(subscribePacket(version, 1 + int(rng, 65535), Array.from({ length: 1 + int(rng, 3) }, () => [filter(rng), int(rng, 3) | (version === 5 ? int(rng, 3) << 4 : 0)] as [string, number]), version === 5 ? properties(rng, 'subscribe', false) : undefined));
      else if (roll < 0.85) out.push(frame(0xa2, u16(1 + int(rng, 65535)), version === 5 ? Buffer.from([0]) : Buffer.alloc(0), mqttString(filter(rng))));
      else if (roll < 0.95) out.push(Buffer.from([0xc0, 0]));
      else out.push(ackPacket(pick(rng, [PUBACK, PUBREC, PUBREL, PUBCOMP] as const), 1 + int(rng, 65535)));
    }
  };
  out.push(connect(rng, version, clientId, shape === 'duplicated-properties'));
  switch (shape) {
    case 'valid':
      valid();
      break;
    case 'truncated': {
      valid();
      const victim = publish(rng, version, 7);
      out.push(victim.subarray(0, 1 + int(rng, victim.length - 1)));
      break;
    }
    case 'duplicated-properties':
      for (let i = 0; i < 10; i++) out.push(publish(rng, version, 1 + i, true));
      if (version === 5) out.push(disconnectPacket(5, pick(rng, [0, 4, 0x80]), properties(rng, 'disconnect', true)));
      break;
    case 'out-of-order-acks':
      for (let i = 0; i < 30; i++) {
        const pid = 1 + int(rng, 10);
        out.push(rng() < 0.5 ? ackPacket(pick(rng, [PUBACK, PUBREC, PUBREL, PUBCOMP] as const), pid) : publishPacket({ version, topic: topic(rng), qos: 2, id: pid }));
      }
      break;
    case 'flood-awaiting-rel':
      for (let i = 1; i <= 110 + int(rng, 30); i++) out.push(publishPacket({ version, topic: topic(rng), qos: 2, id: i }));
      out.push(ackPacket(PUBREL, 1 + int(rng, 100)));
      break;
    case 'flood-inflight':
      out.push(subscribePacket(version, 1, [['fz/#', 2]]));
      for (let i = 1; i <= 200; i++) out.push(publishPacket({ version, topic: `fz/in/${i % 5}`, qos: 1 + int(rng, 2), id: i }));
      break;
    case 'flood-aliases':
      if (version === 5) {
        for (let i = 1; i <= 90; i++) out.push(publishPacket({ version, topic: `fz/alias/${i}/${'y'.repeat(60_000)}`, properties: [[0x23, i]] }));
        out.push(publishPacket({ version, topic: '', properties: [[0x23, 1 + int(rng, 200)]] }));
      } else {
        valid();
      }
      break;
    case 'flood-packet-size':
      out.push(publishPacket({ version, topic: topic(rng), qos: 1, id: 1, payload: Buffer.alloc(1024 * 1024 + int(rng, 1000), 0x62) }));
      break;
    case 'flood-subscriptions':
      for (let i = 0; i < 20; i++) out.push(subscribePacket(version, 1 + i, Array.from({ length: 50 }, (_, k) => [`fz/many/${i}/${k}/${'z'.repeat(int(rng, 200))}`, int(rng, 3)] as [string, number])));
      break;
    case 'takeover':
      valid();
      out.push(connect(rng, version, clientId));
      break;
    case 'mutated': {
      valid();
      const i = int(rng, out.length);
      const copy = Buffer.from(out[i]);
      for (let k = 0; k < 1 + int(rng, 4); k++) copy[int(rng, copy.length)] = int(rng, 256);
      out[i] = copy;
      break;
    }
    case 'random-bytes': {
      const bytes = Buffer.alloc(1 + int(rng, 2000));
      for (let k = 0; k < bytes.length; k++) bytes[k] = int(rng, 256);
      if (rng() < 0.5) out.length = 0;
      out.push(bytes);
      break;
    }
    case 'header-flags':
      for (let i = 0; i < 10; i++) {
        const packet = Buffer.from(pick(rng, [publish(rng, version, 3), subscribePacket(version, 2, ['fz/h']), ackPacket(PUBREL, 4), Buffer.from([0xc0, 0])]));
        packet[0] = (packet[0] & 0xf0) | int(rng, 16);
        out.push(packet);
      }
      if (rng() < 0.3) out.push(Buffer.from([0x00, 0x00]), Buffer.from([0xf0, 0x00]));
      break;
  }
  if (rng() < 0.5) out.push(disconnectPacket(version, version === 5 ? pick(rng, [0, 4, 0x80, 0x8e]) : 0));
  return out;
}

/**
 * Reads the broker's packets off a stream and answers QoS 1/2 deliveries (PUBACK, PUBREC) and
 * PUBREL (PUBCOMP), keeping nothing but the unparsed tail.
 */
function answering(send: (bytes: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let pos = 0;
    for (;;) {
      if (pending.length - pos < 2) break;
      let length = 0;
      let factor = 1;
      let i = pos + 1;
      let complete = false;
      for (; i < pending.length && i < pos + 5; i++) {
        length += (pending[i] & 0x7f) * factor;
        factor *= 128;
        if (!(pending[i] & 0x80)) {
          complete = true;
          break;
        }
      }
      if (!complete || pending.length < i + 1 + length) break;
      const type = pending[pos] >> 4;
      const body = pending.subarray(i + 1, i + 1 + length);
      if (type === 3) {
        const qos = (pending[pos] >> 1) & 3;
        if (qos > 0 && body.length >= 2) {
          const n = body.readUInt16BE(0);
          if (body.length >= 4 + n) send(ackPacket(qos === 1 ? PUBACK : PUBREC, body.readUInt16BE(2 + n)));
        }
      } else if (type === PUBREL && body.length >= 2) {
        send(ackPacket(PUBCOMP, body.readUInt16BE(0)));
      }
      pos = i + 1 + length;
    }
    pending = pos === pending.length ? Buffer.alloc(0) : Buffer.from(pending.subarray(pos));
  };
}

export interface Target {
  mqtt: number;
  ws: number;
}

/**
 * Runs one generated session: connects, writes its packets in a few bursts (some in one write,
 * as a fast client would), answers deliveries in valid shapes, and ends by closing the connection
 * within about a second, whatever the broker did.
 */
export async function runSession(target: Target, rng: Rng, version: Version, id: number, stats: FuzzStats): Promise<void> {
  const shape = pick(rng, SHAPES);
  const overWs = rng() < 0.4;
  const list = packets(rng, version, shape, id);
  stats.sessions++;
  stats.shapes[shape]++;
  stats.transports[overWs ? 'ws' : 'tcp']++;
  stats.packets += list.length;
  stats.bytes += list.reduce((n, p) => n + p.length, 0);
  const answers = shape === 'valid' || shape === 'flood-inflight' || shape === 'takeover';
  await new Promise<void>((resolve) => {
    let send: (bytes: Buffer) => void = () => undefined;
    let close: () => void = () => undefined;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(guard);
      close();
      resolve();
    };
    const guard = setTimeout(finish, 1500);
    const start = () => {
      let i = 0;
      const burst = () => {
        if (done) return;
        if (i >= list.length) {
          setTimeout(finish, int(rng, 300));
          return;
        }
        const n = 1 + int(rng, 20);
        send(Buffer.concat(list.slice(i, i + n)));
        i += n;
        setTimeout(burst, int(rng, 5));
      };
      burst();
    };
    if (overWs) {
      // Now and then a handshake the listener refuses: no subprotocol, or none it supports.
      const protocols = rng() < 0.1 ? pick(rng, [[], ['chat'], ['mqttv3.1']]) : [pick(rng, ['mqtt', 'mqtt-v5', 'mqtt-v3.1.1', 'mqtt-v3'])];
      const ws = new WebSocket(`ws://127.0.0.1:${target.ws}/mqtt`, protocols);
      send = (bytes) => ws.readyState === WebSocket.OPEN && ws.send(bytes);
      close = () => ws.terminate();
      ws.on('error', () => finish());
      ws.on('close', () => finish());
      if (answers) ws.on('message', answering((bytes) => send(bytes)) as (data: unknown) => void);
      ws.once('open', start);
    } else {
      const socket = net.connect(target.mqtt, '127.0.0.1');
      send = (bytes) => {
        if (!socket.destroyed) socket.write(bytes);
      };
      close = () => socket.destroy();
      socket.on('error', () => finish());
      socket.on('close', () => finish());
      socket.on('data', answers ? answering(send) : () => undefined);
      socket.once('connect', start);
    }
  });
}
