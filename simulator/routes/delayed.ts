// EMQX module emqx_delayed_api: /mqtt/delayed (settings), /mqtt/delayed/messages (envelope A),
// /mqtt/delayed/messages/{node}/{msgid} and /mqtt/delayed/messages/{topic} (§16).
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { MAX_SHOWN_PAYLOAD, view, type DelayedConfig, type DelayedMessage } from '../store/messaging/delayed.ts';
import { pageQueryProperties, type PageQuery } from '../store/pagination.ts';
import { topicNameProblem } from '../lib/topic.ts';

const config = {
  type: 'object',
  additionalProperties: false,
  properties: { enable: { type: 'boolean' }, max_delayed_messages: { type: 'integer' } },
} as const;
const nullableString = { type: ['string', 'null'] } as const;
const messageProperties = {
  msgid: { type: 'string' }, node: { type: 'string' }, publish_at: { type: 'string' },
  delayed_interval: { type: 'integer' }, delayed_remaining: { type: 'integer' }, expected_at: { type: 'string' },
  topic: { type: 'string' }, qos: { type: 'integer' }, from_clientid: nullableString, from_username: nullableString,
} as const;
const page = {
  type: 'object',
  properties: {
    data: { type: 'array', items: { type: 'object', properties: messageProperties } },
    meta: { type: 'object', properties: { page: { type: 'integer' }, limit: { type: 'integer' }, hasnext: { type: 'boolean' }, count: { type: 'integer' } } },
  },
} as const;
const byId = {
  type: 'object',
  required: ['node', 'msgid'],
  properties: { node: { type: 'string', maxLength: 256 }, msgid: { type: 'string', maxLength: 256 } },
} as const;
const byTopic = { type: 'object', required: ['topic'], properties: { topic: { type: 'string', maxLength: 65535 } } } as const;

interface ById {
  node: string;
  msgid: string;
}

export default async function delayed(app: FastifyInstance): Promise<void> {
  const { store, clock } = app;

  // The node is checked before the id, as with_maybe/2 does; other nodes hold none of ours.
  function find({ node, msgid }: ById): DelayedMessage {
    if (!store.cluster.names().includes(node)) throw apiError(400, 'INVALID_NODE', `The node name ${node} is invalid`);
    if (!/^[0-9a-fA-F]{32}$/.test(msgid)) throw apiError(400, 'MESSAGE_ID_SCHEMA_ERROR', `Message ID ${msgid} schema error`);
    const message = node === store.cluster.self ? store.delayed.get(msgid) : undefined;
    if (!message) throw apiError(404, 'MESSAGE_ID_NOT_FOUND', `Message ID ${msgid} not found`);
    return message;
  }

  app.get('/mqtt/delayed', { schema: { response: { 200: config } } }, async () => store.delayed.config());

  app.put<{ Body: Partial<DelayedConfig> }>('/mqtt/delayed', { schema: { body: config, response: { 200: config } } },
    async (request) => store.delayed.configure(request.body ?? {}));

  app.get<{ Querystring: PageQuery }>('/mqtt/delayed/messages', {
    schema: { querystring: { type: 'object', additionalProperties: false, properties: pageQueryProperties }, response: { 200: page } },
  }, async (request) => store.delayed.list(request.query, clock.now()));

  app.get<{ Params: ById }>('/mqtt/delayed/messages/:node/:msgid', {
    schema: { params: byId, response: { 200: { type: 'object', properties: { ...messageProperties, payload: { type: 'string' } } } } },
  }, async (request) => {
    const message = find(request.params);
    // Above 2048 bytes the payload is replaced by this literal (emqx_delayed_api).
    const payload = message.payload.length > MAX_SHOWN_PAYLOAD ? 'PAYLOAD_TOO_LARGE' : message.payload.toString('base64');
    return { ...view(message, clock.now()), payload };
  });

  app.delete<{ Params: ById }>('/mqtt/delayed/messages/:node/:msgid', { schema: { params: byId } }, async (request, reply) => {
    store.delayed.remove(find(request.params).msgid);
    return reply.code(204).send();
  });

  app.delete<{ Params: { topic: string } }>('/mqtt/delayed/messages/:topic', { schema: { params: byTopic } }, async (request, reply) => {
    const { topic } = request.params;
    if (topicNameProblem(topic)) throw apiError(400, 'INVALID_TOPIC_NAME', `The topic name ${topic} is invalid`);
    if (!store.delayed.removeByTopic(topic)) throw apiError(404, 'MESSAGE_NOT_FOUND', `Not found messages for ${topic}`);
    return reply.code(204).send();
  });
}
