// EMQX module emqx_retainer_api: /mqtt/retainer/messages (envelope C) and /mqtt/retainer/message/{topic}.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import type { RetainedMessage } from '../store/messaging/mqtt.ts';
import { paginateRows, pageQueryProperties, type PageQuery } from '../store/pagination.ts';
import { rfc3339 } from '../lib/time.ts';
import { topicFilterProblem, topicMatches, topicNameProblem } from '../lib/topic.ts';

// Payloads above 1 MB are left out of GET /mqtt/retainer/message/{topic} (§11).
const MAX_SHOWN_PAYLOAD = 1024 * 1024;

const querystring = {
  type: 'object',
  additionalProperties: false,
  properties: { ...pageQueryProperties, topic: { type: 'string', maxLength: 65535 } },
};
const params = { type: 'object', required: ['topic'], properties: { topic: { type: 'string', maxLength: 65535 } } };

function summary(m: RetainedMessage) {
  return {
    msgid: m.msgid,
    topic: m.topic,
    qos: m.qos,
    publish_at: rfc3339(m.publish_at, 'ms'),
    from_clientid: m.from_clientid,
    from_username: m.from_username,
  };
}

function notFound() {
  return apiError(404, 'NOT_FOUND', "Viewed message doesn't exist");
}

export default async function retainer(app: FastifyInstance): Promise<void> {
  const { store, bridge } = app;
  const retained = store.mqtt.retained;

  function checkTopic(topic: string): void {
    if (topicNameProblem(topic)) throw apiError(400, 'BAD_REQUEST', `Invalid topic: ${topicNameProblem(topic)}`);
  }

  app.get<{ Querystring: PageQuery & { topic?: string } }>('/mqtt/retainer/messages', { schema: { querystring } }, async (request) => {
    const { page, limit, topic } = request.query;
    if (topic !== undefined && topicFilterProblem(topic)) throw apiError(400, 'BAD_REQUEST', `Invalid topic filter: ${topicFilterProblem(topic)}`);
    const rows = topic === undefined ? retained.values() : [...retained.values()].filter((m) => topicMatches(topic, m.topic));
    // The topic filter makes the query fuzzy: no count then (envelope C).
    return paginateRows(rows, { page, limit }, summary, { count: topic === undefined });
  });

  app.delete('/mqtt/retainer/messages', async (_request, reply) => {
    await bridge.clearRetained();
    return reply.code(204).send();
  });

  app.get<{ Params: { topic: string } }>('/mqtt/retainer/message/:topic', { schema: { params } }, async (request) => {
    checkTopic(request.params.topic);
    const message = retained.get(request.params.topic);
    if (!message) throw notFound();
    const shown = message.payload.length <= MAX_SHOWN_PAYLOAD ? { payload: message.payload.toString('base64') } : {};
    return { ...summary(message), ...shown };
  });

  app.delete<{ Params: { topic: string } }>('/mqtt/retainer/message/:topic', { schema: { params } }, async (request, reply) => {
    checkTopic(request.params.topic);
    if (!(await bridge.deleteRetained(request.params.topic))) throw notFound();
    return reply.code(204).send();
  });
}
