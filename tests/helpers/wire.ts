// Raw MQTT encoding for tests and load processes that must write bytes a client library would not
// (malformed filters, packets mqtt.js refuses, thousands of cheap connections): the variable byte
// integer, length-prefixed strings and whole control packets.

/** A Variable Byte Integer [MQTT-1.5.5]: the remaining length, property lengths. */
export function varint(n: number): Buffer {
  const bytes: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    bytes.push(byte);
  } while (n > 0);
  return Buffer.from(bytes);
}

/** A UTF-8 string (or raw bytes) behind its two-byte length [MQTT-1.5.4]. */
export function mqttString(value: string | Buffer): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value) : value;
  return Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 0xff]), bytes]);
}

/** One control packet: the fixed header byte, the remaining length, then the parts. */
export function frame(first: number, ...parts: Buffer[]): Buffer {
  const rest = parts.length === 1 ? parts[0] : Buffer.concat(parts);
  return Buffer.concat([Buffer.from([first]), varint(rest.length), rest]);
}

/** A two-byte integer (packet ids, keepalive). */
export function u16(n: number): Buffer {
  return Buffer.from([(n >> 8) & 0xff, n & 0xff]);
}

/** A four-byte integer (expiry intervals, maximum packet size). */
export function u32(n: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(n >>> 0);
  return bytes;
}

/** How each MQTT 5 property identifier is encoded [MQTT-2.2.2.2]. */
const PROPERTY_TYPES: Record<number, 'byte' | 'u16' | 'u32' | 'varint' | 'string' | 'binary' | 'pair'> = {
  0x01: 'byte', 0x02: 'u32', 0x03: 'string', 0x08: 'string', 0x09: 'binary', 0x0b: 'varint', 0x11: 'u32', 0x12: 'string',
  0x13: 'u16', 0x15: 'string', 0x16: 'binary', 0x17: 'byte', 0x18: 'u32', 0x19: 'byte', 0x1a: 'string', 0x1c: 'string',
  0x1f: 'string', 0x21: 'u16', 0x22: 'u16', 0x23: 'u16', 0x24: 'byte', 0x25: 'byte', 0x26: 'pair', 0x27: 'u32',
  0x28: 'byte', 0x29: 'byte', 0x2a: 'byte',
};

/** One property as written or read: its identifier and value (a user property is a [name, value] pair). */
export type Property = [id: number, value: number | string | Buffer | [string, string]];

/**
 * An MQTT 5 property block, in the order given (duplicates included, which a client library
 * would never write): the variable byte integer length, then each identifier and value.
 */
export function properties(list: readonly Property[] = []): Buffer {
  const parts = list.map(([id, value]) => {
    const type = PROPERTY_TYPES[id];
    const head = Buffer.from([id]);
    switch (type) {
      case 'byte': return Buffer.concat([head, Buffer.from([value as number])]);
      case 'u16': return Buffer.concat([head, u16(value as number)]);
      case 'u32': return Buffer.concat([head, u32(value as number)]);
      case 'varint': return Buffer.concat([head, varint(value as number)]);
      case 'string':
      case 'binary': return Buffer.concat([head, mqttString(value as string | Buffer)]);
      case 'pair': {
        const [name, text] = value as [string, string];
        return Buffer.concat([head, mqttString(name), mqttString(text)]);
      }
      default: throw new Error(`unknown property 0x${id.toString(16)}`);
    }
  });
  const body = Buffer.concat(parts);
  return Buffer.concat([varint(body.length), body]);
}

/** Reads a property block at `offset`: the properties in wire order and where the block ends. */
export function readProperties(bytes: Buffer, offset: number): { list: Property[]; end: number } {
  let length = 0;
  let factor = 1;
  let pos = offset;
  for (;;) {
    const byte = bytes[pos++];
    length += (byte & 0x7f) * factor;
    factor *= 128;
    if (!(byte & 0x80)) break;
  }
  const end = pos + length;
  const list: Property[] = [];
  const str = () => {
    const n = bytes.readUInt16BE(pos);
    const text = bytes.subarray(pos + 2, pos + 2 + n);
    pos += 2 + n;
    return text;
  };
  while (pos < end) {
    const id = bytes[pos++];
    switch (PROPERTY_TYPES[id]) {
      case 'byte': list.push([id, bytes[pos++]]); break;
      case 'u16': list.push([id, bytes.readUInt16BE(pos)]); pos += 2; break;
      case 'u32': list.push([id, bytes.readUInt32BE(pos)]); pos += 4; break;
      case 'varint': {
        let value = 0;
        let f = 1;
        for (;;) {
          const byte = bytes[pos++];
          value += (byte & 0x7f) * f;
          f *= 128;
          if (!(byte & 0x80)) break;
        }
        list.push([id, value]);
        break;
      }
      case 'string': list.push([id, str().toString('utf8')]); break;
      case 'binary': list.push([id, Buffer.from(str())]); break;
      case 'pair': {
        const name = str().toString('utf8');
        list.push([id, [name, str().toString('utf8')]]);
        break;
      }
      default: throw new Error(`unknown property 0x${id.toString(16)} at ${pos - 1}`);
    }
  }
  return { list, end };
}
