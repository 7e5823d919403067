// A raw MQTT connection for tests that write what a client library never would (duplicated
// properties, QoS bits 3, a PUBREL in the same write as a PUBLISH, floods past every limit) and
// read every packet the broker answers, over TCP or WebSocket; and the packet builders they use.
import net from 'node:net';
import WebSocket, { type ClientOptions } from 'ws';
import { frame, mqttString, properties, readProperties, u16, type Property } from './wire.ts';

/** 3: MQTT 3.1, 4: MQTT 3.1.1, 5: MQTT 5.0. */
export type Version = 3 | 4 | 5;

/** One packet the broker sent: the type (high nibble), the flags (low nibble) and the body. */
export interface Received {
  type: number;
  flags: number;
  body: Buffer;
}

export const CONNACK = 2;
export const PUBLISH = 3;
export const PUBACK = 4;
export const PUBREC = 5;
export const PUBREL = 6;
export const PUBCOMP = 7;
export const SUBACK = 9;
export const UNSUBACK = 11;
export const DISCONNECT = 14;

const props = (version: Version, list?: readonly Property[]) => (version === 5 ? properties(list) : Buffer.alloc(0));

export interface WillSpec {
  topic: string;
  payload?: string | Buffer;
  qos?: number;
  retain?: boolean;
  properties?: Property[];
}

export interface ConnectSpec {
  version?: Version;
  clientId: string;
  clean?: boolean;
  keepalive?: number;
  properties?: Property[];
  will?: WillSpec;
  username?: string;
  password?: string;
}

export function connectPacket(spec: ConnectSpec): Buffer {
  const version = spec.version ?? 4;
  const will = spec.will;
  let flags = spec.clean === false ? 0 : 0x02;
  if (will) flags |= 0x04 | ((will.qos ?? 0) << 3) | (will.retain ? 0x20 : 0);
  if (spec.password !== undefined) flags |= 0x40;
  if (spec.username !== undefined) flags |= 0x80;
  const parts = [
    mqttString(version === 3 ? 'MQIsdp' : 'MQTT'), Buffer.from([version, flags]), u16(spec.keepalive ?? 60),
    props(version, spec.properties), mqttString(spec.clientId),
  ];
  if (will) parts.push(props(version, will.properties), mqttString(will.topic), mqttString(Buffer.from(will.payload ?? '')));
  if (spec.username !== undefined) parts.push(mqttString(spec.username));
  if (spec.password !== undefined) parts.push(mqttString(spec.password));
  return frame(0x10, ...parts);
}

export interface PublishSpec {
  version?: Version;
  topic: string | Buffer;
  /** 0–2, or 3 for the forbidden QoS bits. */
  qos?: number;
  id?: number;
  retain?: boolean;
  dup?: boolean;
  properties?: Property[];
  payload?: string | Buffer;
}

export function publishPacket(spec: PublishSpec): Buffer {
  const version = spec.version ?? 4;
  const qos = spec.qos ?? 0;
  const first = 0x30 | (spec.dup ? 0x08 : 0) | (qos << 1) | (spec.retain ? 1 : 0);
  const id = qos > 0 ? u16(spec.id ?? 1) : Buffer.alloc(0);
  return frame(first, mqttString(spec.topic), id, props(version, spec.properties), Buffer.from(spec.payload ?? ''));
}

/** SUBSCRIBE with one options byte per filter (the QoS, plus MQTT 5's nl/rap/rh bits). */
export function subscribePacket(version: Version, id: number, filters: (string | [string, number])[], list?: Property[]): Buffer {
  const entries = filters.flatMap((f) => {
    const [topic, options] = typeof f === 'string' ? [f, 0] : f;
    return [mqttString(topic), Buffer.from([options])];
  });
  return frame(0x82, u16(id), props(version, list), ...entries);
}

/** PUBACK, PUBREC, PUBREL or PUBCOMP (PUBREL carries its mandatory flags). */
export function ackPacket(type: typeof PUBACK | typeof PUBREC | typeof PUBREL | typeof PUBCOMP, id: number): Buffer {
  return frame((type << 4) | (type === PUBREL ? 2 : 0), u16(id));
}

export function disconnectPacket(version: Version, reasonCode = 0, list?: Property[]): Buffer {
  return version === 5 ? frame(0xe0, Buffer.from([reasonCode]), properties(list)) : Buffer.from([0xe0, 0]);
}

/** A decoded PUBLISH the broker sent. */
export interface Delivered {
  topic: string;
  qos: number;
  retain: boolean;
  id: number | undefined;
  properties: Property[];
  payload: Buffer;
}

export function decodePublish(packet: Received, version: Version): Delivered {
  const { body, flags } = packet;
  const qos = (flags >> 1) & 3;
  const n = body.readUInt16BE(0);
  const topic = body.subarray(2, 2 + n).toString('utf8');
  let pos = 2 + n;
  let id: number | undefined;
  if (qos > 0) {
    id = body.readUInt16BE(pos);
    pos += 2;
  }
  let list: Property[] = [];
  if (version === 5) ({ list, end: pos } = readProperties(body, pos));
  return { topic, qos, retain: (flags & 1) === 1, id, properties: list, payload: body.subarray(pos) };
}

/** The reason code of a CONNACK (MQTT 5) or its return code (3.1/3.1.1). */
export function connackCode(packet: Received): number {
  return packet.body[1];
}

/** The reason code of an MQTT 5 DISCONNECT (0 when the body is empty). */
export function disconnectCode(packet: Received): number {
  return packet.body.length > 0 ? packet.body[0] : 0;
}

/** A raw connection: writes bytes, splits what arrives into packets, knows when it closed. */
export class RawMqtt {
  readonly packets: Received[] = [];
  closed = false;
  private read = 0;
  private pending: Buffer = Buffer.alloc(0);
  private waiters: (() => void)[] = [];

  private constructor(private readonly send: (bytes: Buffer) => void, private readonly stop: () => void) {}

  static tcp(port: number, host = '127.0.0.1'): Promise<RawMqtt> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, host);
      const raw = new RawMqtt((bytes) => socket.write(bytes), () => socket.destroy());
      socket.on('data', (chunk) => raw.receive(chunk));
      socket.on('close', () => raw.end(false));
      socket.once('error', (err) => (raw.closed ? undefined : reject(err)));
      socket.on('error', () => undefined);
      socket.once('connect', () => resolve(raw));
    });
  }

  /** Over WebSocket: rejects with the HTTP status when the handshake is refused. */
  static ws(url: string, protocols: string[] = ['mqtt'], options: ClientOptions = {}): Promise<RawMqtt & { protocol: string }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, protocols, options);
      const raw = new RawMqtt((bytes) => ws.send(bytes), () => ws.terminate()) as RawMqtt & { protocol: string };
      ws.on('message', (data: Buffer) => raw.receive(data));
      ws.on('close', () => raw.end(false));
      ws.on('error', () => undefined);
      ws.once('unexpected-response', (_req, res) => {
        reject(Object.assign(new Error(`handshake refused: ${res.statusCode}`), { status: res.statusCode }));
        ws.terminate();
      });
      ws.once('open', () => {
        raw.protocol = ws.protocol;
        resolve(raw);
      });
    });
  }

  write(...parts: Buffer[]): void {
    if (!this.closed) this.send(parts.length === 1 ? parts[0] : Buffer.concat(parts));
  }

  /** Closes the connection from this side. */
  end(destroy = true): void {
    if (!this.closed && destroy) this.stop();
    this.closed = true;
    this.wake();
  }

  private receive(chunk: Buffer): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    let pos = 0;
    for (;;) {
      if (this.pending.length - pos < 2) break;
      let length = 0;
      let factor = 1;
      let i = pos + 1;
      let complete = false;
      for (; i < this.pending.length && i < pos + 5; i++) {
        length += (this.pending[i] & 0x7f) * factor;
        factor *= 128;
        if (!(this.pending[i] & 0x80)) {
          complete = true;
          break;
        }
      }
      if (!complete || this.pending.length < i + 1 + length) break;
      const first = this.pending[pos];
      this.packets.push({ type: first >> 4, flags: first & 0xf, body: Buffer.from(this.pending.subarray(i + 1, i + 1 + length)) });
      pos = i + 1 + length;
    }
    this.pending = pos === this.pending.length ? Buffer.alloc(0) : this.pending.subarray(pos);
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  private changed(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** The next packet not read yet (of `type`, skipping others), or null after `ms` or a close. */
  async next(type?: number, ms = 2000): Promise<Received | null> {
    const deadline = Date.now() + ms;
    for (;;) {
      while (this.read < this.packets.length) {
        const packet = this.packets[this.read++];
        if (type === undefined || packet.type === type) return packet;
      }
      if (this.closed || Date.now() >= deadline) return null;
      await this.changed(deadline - Date.now());
    }
  }

  /** True once the broker has closed the connection, false if it is still open after `ms`. */
  async closedWithin(ms = 2000): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.closed && Date.now() < deadline) await this.changed(deadline - Date.now());
    return this.closed;
  }
}

/** Opens a TCP connection and sends CONNECT; resolves with the connection and its CONNACK. */
export async function rawConnect(port: number, spec: ConnectSpec): Promise<{ raw: RawMqtt; connack: Received | null }> {
  const raw = await RawMqtt.tcp(port);
  raw.write(connectPacket(spec));
  return { raw, connack: await raw.next(CONNACK) };
}
