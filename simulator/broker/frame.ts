// How each connection's packets are read, as emqx_frame.erl (v5.5.1, the same at v5.8.9 and 6.2.2)
// reads them, where mqtt-packet's parser reads them otherwise. Installed on every parser by
// mqtt-limits.ts, which supplies the zone settings:
// - max_packet_size is checked as soon as a packet's length is known (frame_too_large);
// - a property given twice counts once, its last value (parse_property overwrites the map key),
//   and User Properties keep their wire order [MQTT-3.3.2-18] (mqtt5.ts writes them in it);
// - Request Problem / Response Information keep their raw byte (emqx_packet check_conn_props
//   refuses anything but 0 and 1);
// - without `mqtt.strict_mode` (the default) the fixed header's flags are not validated: a PUBLISH
//   with QoS bits 3 is read (emqx_mqtt_caps then refuses the QoS), other packets' flag bits are
//   ignored; with it, validate_header and validate_packet_id refuse them as malformed;
// - strings holding NUL or ill-formed UTF-8 [MQTT-1.5.3-1/2] close the connection, or are left to
//   the topic check when they are a topic or filter (mqtt-limits.ts);
// - a packet that cannot be read is a frame error: a connected MQTT 5 client gets DISCONNECT 0x81
//   (0x95 when too large) and the rest of its input is dropped, as emqx_channel.erl handle_in
//   ({frame_error, …}) answers; before that the connection is closed; an unsupported protocol
//   level gets its CONNACK first.
import { isUtf8 } from 'node:buffer';
import type { Client } from 'aedes';
import { RC_MALFORMED_PACKET, RC_PACKET_TOO_LARGE } from './reason-codes.ts';

/** Set on a parsed packet whose topic, or one of whose filters, holds NUL or ill-formed UTF-8. */
export const MALFORMED = Symbol('malformed topic');

/**
 * On a `userProperties` object whose pairs did not arrive grouped by name (mqtt-packet keeps one
 * key per name): the pairs in wire order.
 */
export const USER_PROPERTY_ORDER = Symbol('user property order');

/** On a properties object: the raw bytes of Request Problem / Response Information when not 0 or 1. */
export const RAW_FLAGS = Symbol('raw flag properties');

export type UserPropertyPairs = readonly (readonly [string, string])[];

type Props = Record<string, unknown> & { [RAW_FLAGS]?: Record<string, number> };

interface FrameParser {
  [BOUND]?: Bound;
  packet: { length: number; cmd?: string; qos?: number; retain?: boolean; dup?: boolean; topic?: string | null; messageId?: number; [MALFORMED]?: true };
  settings: { protocolVersion?: number };
  error?: Error | null;
  _pos: number;
  _list: { length: number; slice(start: number, end: number): Buffer; readUInt8(offset: number): number; consume(bytes: number): void };
  _parseHeader(): boolean;
  _parseLength(): boolean;
  _parseString(): string | null;
  _parseProperties(): Props | false;
  _parseByType(type: string): unknown;
  _parseByte(): number;
  _parseMessageId(): boolean;
  _emitError(err: Error): void;
}

/** What the parser patches read per packet: the zone settings and the connection. */
export interface FrameSettings {
  /** The zone's max_packet_size in bytes. */
  maxPacketSize(): number;
  /** The zone's `mqtt.strict_mode`. */
  strictMode(): boolean;
  /** A packet over max_packet_size arrived (counted by the caller). */
  tooLarge(cmd: string | undefined): void;
}

interface FrameClient extends Client {
  connected: boolean;
  closed: boolean;
}

interface Bound {
  client: FrameClient;
  settings: FrameSettings;
  /** The connection is being closed over a frame error: its input is dropped. */
  discarding: boolean;
}

/** On a parser: its connection and settings (a property, not a WeakMap: it is read for every packet). */
const BOUND = Symbol('frame settings');

// The parser's own methods, taken from the first parser (every parser shares them).
let own: Pick<FrameParser, '_parseHeader' | '_parseLength' | '_parseString' | '_parseProperties' | '_parseByType' | '_parseMessageId' | '_emitError'> | null = null;

const PUBLISH = 3;
const TYPES = ['reserved', 'connect', 'connack', 'publish', 'puback', 'pubrec', 'pubrel', 'pubcomp', 'subscribe', 'suback', 'unsubscribe', 'unsuback', 'pingreq', 'pingresp', 'disconnect', 'auth'];
/** The flags the fixed header must carry [MQTT-2.2.2-1]: PUBREL, SUBSCRIBE and UNSUBSCRIBE 0x2, the rest 0. */
const REQUIRED_FLAGS = [-1, 0, 0, -1, 0, 0, 2, 0, 2, 0, 2, 0, 0, 0, 0, 0];

function discard(parser: FrameParser): false {
  parser._list.consume(parser._list.length);
  parser.packet.length = -1;
  return false;
}

/**
 * A frame error (emqx_channel.erl handle_in({frame_error, Reason})): a connected MQTT 5 client is
 * sent DISCONNECT with `reasonCode` and its further input dropped; true when that was done, false
 * when the connection is simply closed by the parser's error.
 */
function frameError(parser: FrameParser, reasonCode: number): boolean {
  const state = parser[BOUND];
  const client = state?.client;
  if (!state || !client || client.version !== 5 || !client.connected || client.closed) return false;
  state.discarding = true;
  client.disconnect({ reasonCode });
  return true;
}

function malformed(parser: FrameParser, reason: string): false {
  const err = new Error(reason);
  if (frameError(parser, RC_MALFORMED_PACKET)) {
    // Stops this parse without the error event, which would close the connection at once.
    parser.error = err;
    discard(parser);
    return false;
  }
  parser._emitError(err);
  return false;
}

/** The zone's strict_mode, read only for a header or packet id that it would refuse. */
function strictMode(state: Bound | undefined): boolean {
  return state !== undefined && state.settings.strictMode();
}

// emqx_frame parse/2: the type, dup, QoS and retain bits; validate_header only in strict mode,
// else fixqos (PUBREL, SUBSCRIBE and UNSUBSCRIBE are QoS 1) and the flags are taken as they come.
const parseHeader = function (this: FrameParser): boolean {
  const state = this[BOUND];
  if (state?.discarding) return discard(this);
  const first = this._list.readUInt8(0);
  const type = first >> 4;
  const flags = first & 0xf;
  if (type === PUBLISH) {
    const qos = (flags >> 1) & 3;
    const dup = (flags & 0x8) !== 0;
    if ((qos === 3 || (dup && qos !== 1)) && strictMode(state)) return malformed(this, 'bad_frame_header');
    if (qos !== 3) return own!._parseHeader.call(this);
    // QoS bits 3 are read as QoS 3; emqx_mqtt_caps check_pub refuses it (mqtt-limits.ts).
    Object.assign(this.packet, { cmd: 'publish', retain: (flags & 1) === 1, qos: 3, dup });
    this._list.consume(1);
    return true;
  }
  if (REQUIRED_FLAGS[type] < 0 || flags === REQUIRED_FLAGS[type]) return own!._parseHeader.call(this);
  if (strictMode(state)) return malformed(this, 'bad_frame_header');
  const qos = (flags >> 1) & 3;
  Object.assign(this.packet, { cmd: TYPES[type], retain: false, qos: qos === 0 && (type === 6 || type === 8 || type === 10) ? 1 : qos, dup: false });
  this._list.consume(1);
  return true;
};

const parseLength = function (this: FrameParser): boolean {
  const state = this[BOUND];
  if (state?.discarding) return discard(this);
  const ok = own!._parseLength.call(this);
  const settings = state?.settings;
  if (!ok || !settings || this.packet.length <= settings.maxPacketSize()) return ok;
  settings.tooLarge(this.packet.cmd);
  // emqx_channel.erl (v5.5.1) handle_in({frame_error, frame_too_large}): DISCONNECT 0x95 for a
  // connected MQTT 5 client, the rest of the packet read and dropped.
  if (frameError(this, RC_PACKET_TOO_LARGE)) return discard(this);
  this._emitError(new Error('frame_too_large'));
  return false;
};

// emqx_frame validate_packet_id, strict mode only: packet id 0 is malformed.
const parseMessageId = function (this: FrameParser): boolean {
  if (!own!._parseMessageId.call(this)) return false;
  if (this.packet.messageId === 0 && strictMode(this[BOUND])) return malformed(this, 'bad_packet_id');
  return true;
};

/** A Variable Byte Integer [MQTT-1.5.5] at `at`: its value and where it ends. */
export function readVarint(bytes: { readUInt8(offset: number): number }, at: number): [value: number, end: number] {
  let value = 0;
  let factor = 1;
  for (let i = 0; i < 4; i++) {
    const byte = bytes.readUInt8(at++);
    value += (byte & 0x7f) * factor;
    factor *= 128;
    if (!(byte & 0x80)) break;
  }
  return [value, at];
}

/** `n` as a Variable Byte Integer. */
export function varint(n: number): Buffer {
  const out: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return Buffer.from(out);
}

/** Whether the string whose bytes start at `start` is a topic or filter of the packet being parsed. */
function isTopicString(parser: FrameParser, start: number): boolean {
  const { packet } = parser;
  // The topic name comes first; it is assigned once parsed.
  if (packet.cmd === 'publish') return packet.topic === null;
  if (packet.cmd !== 'subscribe' && packet.cmd !== 'unsubscribe') return false;
  // SUBSCRIBE and UNSUBSCRIBE: the packet id, the properties (MQTT 5: a variable byte integer
  // length), then the filters.
  let filters = 2;
  if (parser.settings.protocolVersion === 5) {
    const [length, end] = readVarint(parser._list, filters);
    filters = end + length;
  }
  return start - 2 >= filters;
}

// [MQTT-1.5.3-1] ill-formed UTF-8 and [MQTT-1.5.3-2] U+0000 in any string of a packet: the server
// closes the connection. In a topic or filter it is left to the packet check, which answers as
// EMQX (emqx_topic:validate fails on both) with its reason code. The parser decodes ill-formed
// bytes to U+FFFD, so only strings holding U+FFFD are checked against their bytes.
const parseString = function (this: FrameParser): string | null {
  const start = this._pos + 2;
  const value = own!._parseString.call(this);
  if (value === null || this.error) return value;
  const problem = value.includes('\u0000') ? 'string contains U+0000'
    : value.includes('\uFFFD') && !isUtf8(this._list.slice(start, this._pos)) ? 'string is not valid UTF-8' : null;
  if (problem === null) return value;
  if (isTopicString(this, start)) this.packet[MALFORMED] = true;
  else malformed(this, problem);
  return value;
};

// The properties of the block being parsed, in wire order: identifier and value.
let recording: [number, unknown][] | null = null;

const parseByType = function (this: FrameParser, type: string): unknown {
  if (recording === null) return own!._parseByType.call(this, type);
  const id = this._list.readUInt8(this._pos - 1);
  const value = type === 'byte' ? this._parseByte() : own!._parseByType.call(this, type);
  recording.push([id, value]);
  return type === 'byte' ? value !== 0 : value;
};

const REQUEST_FLAGS: Record<number, string> = { 0x17: 'requestProblemInformation', 0x19: 'requestResponseInformation' };

const parseProperties = function (this: FrameParser): Props | false {
  const outer = recording;
  const seen: [number, unknown][] = [];
  recording = seen;
  let result: Props | false;
  try {
    result = own!._parseProperties.call(this);
  } finally {
    recording = outer;
  }
  if (result === false || seen.length < 2 && !seen.some(([id, v]) => REQUEST_FLAGS[id] && v !== 0 && v !== 1)) return result;
  const pairs: [string, string][] = [];
  const last = new Map<number, unknown>();
  for (const [id, value] of seen) {
    if (id === 0x26) pairs.push([(value as { name: string }).name, (value as { value: string }).value]);
    else last.set(id, value);
  }
  for (const [name, value] of Object.entries(result)) {
    // emqx_frame parse_property: a repeated property overwrites the earlier one.
    if (name !== 'userProperties' && Array.isArray(value)) result[name] = value[value.length - 1];
  }
  for (const [id, name] of Object.entries(REQUEST_FLAGS)) {
    const raw = last.get(Number(id)) as number | undefined;
    if (raw !== undefined) {
      result[name] = raw !== 0;
      if (raw > 1) (result[RAW_FLAGS] ??= {})[name] = raw;
    }
  }
  const users = result.userProperties as Record<string, string | string[]> | undefined;
  if (users && !grouped(users, pairs)) Object.defineProperty(users, USER_PROPERTY_ORDER, { value: pairs });
  return result;
};

/** Whether writing the object (one key per name, its values in turn) gives the pairs' order. */
function grouped(users: Record<string, string | string[]>, pairs: UserPropertyPairs): boolean {
  let i = 0;
  for (const name of Object.keys(users)) {
    const values = users[name];
    for (const value of Array.isArray(values) ? values : [values]) {
      const pair = pairs[i++];
      if (!pair || pair[0] !== name || pair[1] !== value) return false;
    }
  }
  return i === pairs.length;
}

// A protocol level other than 3, 4 or 5: emqx_packet.erl (v5.5.1) check_proto_ver answers
// RC_UNSUPPORTED_PROTOCOL_VERSION, written for a pre-5 level as the 3.1.1 return code 1
// (emqx_reason_codes:compat(connack, 16#84)); the parser refuses the level, so the CONNACK is
// written here before its error closes the connection.
const UNACCEPTABLE_PROTOCOL = Buffer.from([0x20, 0x02, 0x00, 0x01]);
const emitError = function (this: FrameParser, err: Error): void {
  const client = this[BOUND]?.client;
  if (err.message === 'Invalid protocol version' && this.packet.cmd === 'connect') client?.conn.write(UNACCEPTABLE_PROTOCOL);
  else if (!this.error && frameError(this, RC_MALFORMED_PACKET)) {
    this.error = err;
    discard(this);
    return;
  }
  own!._emitError.call(this, err);
};

/** Makes a connection's parser read as emqx_frame does (one set of functions for every parser). */
export function installFrame(parser: unknown, client: Client, settings: FrameSettings): void {
  const p = parser as FrameParser;
  if (p._parseHeader === parseHeader) return;
  own ??= {
    _parseHeader: p._parseHeader, _parseLength: p._parseLength, _parseString: p._parseString, _parseProperties: p._parseProperties,
    _parseByType: p._parseByType, _parseMessageId: p._parseMessageId, _emitError: p._emitError,
  };
  p[BOUND] = { client: client as FrameClient, settings, discarding: false };
  p._parseHeader = parseHeader;
  p._parseLength = parseLength;
  p._parseString = parseString;
  p._parseProperties = parseProperties;
  p._parseByType = parseByType;
  p._parseMessageId = parseMessageId;
  p._emitError = emitError;
}
