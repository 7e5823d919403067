// Minimal MQTT 3.1.1 and 5.0 packet encoding for the load processes: thousands of raw sockets cost
// far less than thousands of mqtt.js clients, so the load generator never becomes the bottleneck.
// MQTT 5 packets carry an empty properties block where the protocol has one.
import { frame as packet, mqttString as str } from '../helpers/wire.ts';

/** The protocol level: 4 (MQTT 3.1.1) or 5 (MQTT 5.0). */
export type Level = 4 | 5;

const NO_PROPERTIES = Buffer.from([0]);
const none = Buffer.alloc(0);

/** CONNECT with clean session and keepalive 0, so idle clients need no pings. */
export function connect(clientId: string, level: Level = 4): Buffer {
  return packet(0x10, Buffer.concat([str('MQTT'), Buffer.from([level, 0x02, 0, 0]), level === 5 ? NO_PROPERTIES : none, str(clientId)]));
}

/** SUBSCRIBE to one filter at the given QoS. */
export function subscribe(packetId: number, filter: string, qos = 0, level: Level = 4): Buffer {
  return packet(0x82, Buffer.concat([Buffer.from([packetId >> 8, packetId & 0xff]), level === 5 ? NO_PROPERTIES : none, str(filter), Buffer.from([qos])]));
}

/** A QoS 0 PUBLISH. */
export function publish(topic: string, payload: Buffer, level: Level = 4): Buffer {
  return packet(0x30, Buffer.concat([str(topic), level === 5 ? NO_PROPERTIES : none, payload]));
}

/**
 * Counts the packets of one type arriving on a stream by walking the fixed headers, without
 * decoding the bodies (0x30 = PUBLISH QoS 0, 0x20 = CONNACK, 0x90 = SUBACK).
 */
export function packetCounter(onPacket: (type: number) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let offset = 0;
    for (;;) {
      if (pending.length - offset < 2) break;
      let length = 0;
      let multiplier = 1;
      let i = offset + 1;
      let complete = false;
      for (; i < pending.length && i < offset + 5; i++) {
        length += (pending[i] & 0x7f) * multiplier;
        multiplier *= 128;
        if ((pending[i] & 0x80) === 0) {
          complete = true;
          break;
        }
      }
      if (!complete || pending.length < i + 1 + length) break;
      onPacket(pending[offset] & 0xf0);
      offset = i + 1 + length;
    }
    pending = offset === pending.length ? Buffer.alloc(0) : pending.subarray(offset);
  };
}
