// EMQX module emqx_mgmt_api_publish: POST /publish and POST /publish/bulk, sent through the real broker.
import type { FastifyInstance } from 'fastify';
import type { PublishRequest } from '../broker/bridge.ts';
import { maxTopicLevels, topicLevels } from '../broker/mqtt-limits.ts';
import { MAX_TOPIC_BYTES, topicNameError } from '../lib/topic.ts';

interface PublishBody {
  topic: string;
  payload: string;
  payload_encoding: 'plain' | 'base64';
  qos: 0 | 1 | 2;
  retain: boolean;
}

// EMQX's default mqtt.max_packet_size.
const MAX_PACKET_BYTES = 1024 * 1024;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const message = {
  type: 'object',
  required: ['topic', 'payload'],
  additionalProperties: false,
  properties: {
    // Topics over 65535 bytes get EMQX's answer (reason 144) from the topic check below; the
    // schema only bounds the work.
    topic: { type: 'string', maxLength: 4 * MAX_TOPIC_BYTES },
    payload: { type: 'string' },
    payload_encoding: { type: 'string', enum: ['plain', 'base64'], default: 'plain' },
    qos: { type: 'integer', minimum: 0, maximum: 2, default: 0 },
    retain: { type: 'boolean', default: false },
    // MQTT 5 properties are accepted; the broker speaks MQTT 3.1.1 and cannot forward them.
    properties: { type: 'object' },
    // Deprecated since 5.0.14 and ignored, as in EMQX.
    clientid: { type: 'string', maxLength: 65535 },
  },
} as const;

/** A publish outcome in EMQX's `{reason_code, message}` form; errors also carry `code` (S8). */
interface Refusal {
  status: 400;
  body: { code: string; reason_code: number; message: string };
}

function refusal(reason_code: number, text: string): Refusal {
  return { status: 400, body: { code: 'BAD_REQUEST', reason_code, message: text } };
}

/** Checks one message and turns it into a broker publish, or says why not (MQTT 5 reason codes). */
function prepare(body: PublishBody, maxLevels: number): PublishRequest | Refusal {
  // 0x90 Topic Name invalid: the check PUBLISH packets get (emqx_mgmt_api_publish.erl v5.5.1).
  if (topicNameError(body.topic)) return refusal(144, 'topic_name_invalid');
  // The zone's level limit, as on MQTT (security.md S9).
  if (topicLevels(body.topic) > maxLevels) return refusal(144, `topic_name_invalid: more than ${maxLevels} levels (max_topic_levels)`);
  if (body.payload_encoding === 'base64' && !BASE64.test(body.payload)) return refusal(131, 'invalid_base64_payload');
  const payload = Buffer.from(body.payload, body.payload_encoding === 'base64' ? 'base64' : 'utf8');
  // 0x97 Packet too large: payload plus topic over mqtt.max_packet_size.
  if (payload.length + Buffer.byteLength(body.topic) > MAX_PACKET_BYTES) return refusal(151, 'packet_too_large');
  return { topic: body.topic, payload, qos: body.qos, retain: body.retain };
}

const NO_SUBSCRIBERS = { reason_code: 16, message: 'no_matching_subscribers' };

export default async function publish(app: FastifyInstance): Promise<void> {
  const { bridge, store } = app;
  // Base64 of a 1 MB payload is larger than Fastify's default body limit.
  const bodyLimit = 4 * MAX_PACKET_BYTES;

  app.post<{ Body: PublishBody }>('/publish', { bodyLimit, schema: { body: message } }, async (request, reply) => {
    const prepared = prepare(request.body, maxTopicLevels(store));
    if ('status' in prepared) return reply.code(prepared.status).send(prepared.body);
    const { id, matched } = await bridge.publish(prepared);
    // 202 with reason 16 when nobody subscribes; a retained message is still stored.
    return matched ? { id } : reply.code(202).send(NO_SUBSCRIBERS);
  });

  app.post<{ Body: PublishBody[] }>('/publish/bulk', {
    bodyLimit,
    schema: { body: { type: 'array', items: message, minItems: 1, maxItems: 1000 } },
  }, async (request, reply) => {
    const maxLevels = maxTopicLevels(store);
    const prepared = request.body.map((message) => prepare(message, maxLevels));
    // One bad message refuses the whole batch before anything is sent.
    const bad = prepared.find((p): p is Refusal => 'status' in p);
    if (bad) return reply.code(bad.status).send(bad.body);
    const results = [];
    let allMatched = true;
    for (const p of prepared as PublishRequest[]) {
      const { id, matched } = await bridge.publish(p);
      allMatched &&= matched;
      results.push(matched ? { id } : NO_SUBSCRIBERS);
    }
    return reply.code(allMatched ? 200 : 202).send(results);
  });
}
