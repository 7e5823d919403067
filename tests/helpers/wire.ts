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
