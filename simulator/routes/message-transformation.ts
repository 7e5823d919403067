// EMQX module emqx_message_transformation_http_api (e5.8.9): /message_transformations, the ordered
// transformations that rewrite messages in the broker's message path, and the dry run of one
// transformation on a message given in the request (store/messaging/message-transformation.ts).
import type { FastifyInstance } from 'fastify';
import type { Obj } from '../rules/values.ts';
import { SERDE_TYPES, type TransformMessage } from '../store/messaging/message-transformation.ts';
import { chainRoutes, entryProperties } from './message-chain.ts';

const serde = {
  type: 'object', required: ['type'], additionalProperties: false,
  properties: { type: { type: 'string', enum: SERDE_TYPES }, schema: { type: 'string', maxLength: 255 }, message_type: { type: 'string', maxLength: 255 } },
} as const;

const transformation = {
  type: 'object', required: ['name', 'topics', 'failure_action'], additionalProperties: false,
  properties: {
    ...entryProperties,
    payload_decoder: serde,
    payload_encoder: serde,
    operations: {
      type: 'array', maxItems: 1000,
      items: { type: 'object', required: ['key', 'value'], additionalProperties: false, properties: { key: { type: 'string', maxLength: 65535 }, value: { type: 'string', maxLength: 65535 } } },
    },
  },
} as const;

// fields(dryrun_input_message): the message of a dry run, with its defaults.
const dryrunMessage = {
  type: 'object', required: ['payload', 'topic'], additionalProperties: false,
  properties: {
    client_attrs: { type: 'object' },
    clientid: { type: 'string', default: 'test-clientid' },
    payload: { type: 'string', maxLength: 1_048_576 },
    peername: { type: 'string', default: '127.0.0.1:19872' },
    pub_props: { type: 'object' },
    qos: { type: 'integer', minimum: 0, maximum: 2, default: 0 },
    retain: { type: 'boolean', default: false },
    topic: { type: 'string', maxLength: 65535 },
    user_property: { type: 'object', additionalProperties: { type: 'string' } },
    username: { type: 'string' },
  },
} as const;

interface DryrunBody {
  transformation: Obj;
  message: { client_attrs?: Obj; clientid: string; payload: string; peername: string; pub_props?: Obj; qos: 0 | 1 | 2; retain: boolean; topic: string; user_property?: Record<string, string>; username?: string };
}

export default async function messageTransformation(app: FastifyInstance): Promise<void> {
  const { messageTransformations } = app.store;
  chainRoutes(app, { base: 'message_transformations', item: 'transformation', chain: messageTransformations, body: transformation });

  app.post<{ Body: DryrunBody }>('/message_transformations/dryrun', {
    schema: { body: { type: 'object', required: ['transformation', 'message'], additionalProperties: false, properties: { transformation, message: dryrunMessage } } },
  }, async (request, reply) => {
    const t = messageTransformations.validate(request.body.transformation);
    const m = request.body.message;
    const now = app.store.clock.now();
    const message: TransformMessage = {
      topic: m.topic, qos: m.qos, retain: m.retain, payload: Buffer.from(m.payload), user_property: { ...m.user_property },
      context: {
        client_attrs: m.client_attrs ?? {}, clientid: m.clientid, username: m.username ?? null, peername: m.peername,
        pub_props: { ...m.pub_props, 'User-Property': { ...m.user_property } }, flags: { dup: false, retain: m.retain },
        id: 'dryrun', node: app.store.cluster.self, publish_received_at: now,
      },
    };
    const result = messageTransformations.dryrun(t, message);
    if (!result.ok) return reply.code(400).send(result.failure);
    const out = result.message;
    // dryrun_input_message_out/1: payload, qos, topic, retain and the user properties.
    return { payload: out.payload.toString('utf8'), qos: out.qos, topic: out.topic, retain: out.retain, user_property: out.user_property };
  });
}
