// EMQX module emqx_mgmt_api_clients: /clients, /clients_v2, /clients/{clientid} and its subscribe, unsubscribe, keepalive, authorization cache and message queue calls.
import { isUtf8 } from 'node:buffer';
import type { Client } from 'aedes';
import type { FastifyInstance } from 'fastify';
import type { SubscribeRequest } from '../broker/bridge.ts';
import { subscribeProblem } from '../broker/bridge.ts';
import { apiError } from '../plugins/errors.ts';
import { CLIENT_FIELDS } from '../store/messaging/client-record.ts';
import type { ClientFilters } from '../store/messaging/clients.ts';
import { parseBytesize } from '../lib/units.ts';
import { pageQueryProperties, type PageQuery } from '../store/pagination.ts';
import { parseEpochMillisecond } from '../lib/time.ts';

const text = { type: 'string', maxLength: 65535 } as const;
const repeatable = { type: 'array', items: text, maxItems: 1000 } as const;
const time = { type: 'string', maxLength: 64 } as const;
const filterProperties = {
  clientid: repeatable,
  username: repeatable,
  ip_address: { type: 'string', maxLength: 64 },
  conn_state: { type: 'string', enum: ['connected', 'idle', 'disconnected'] },
  clean_start: { type: 'boolean' },
  proto_ver: { type: 'integer', minimum: 0, maximum: 255 },
  like_clientid: text,
  like_username: text,
  like_ip_address: { type: 'string', maxLength: 64 },
  gte_created_at: time,
  lte_created_at: time,
  gte_connected_at: time,
  lte_connected_at: time,
  // 5.6+: `all` or a comma-separated list of client fields.
  fields: { type: 'string', maxLength: 4096 },
} as const;

const TIME_FILTERS = ['gte_created_at', 'lte_created_at', 'gte_connected_at', 'lte_connected_at'] as const;

type FilterQuery = Omit<ClientFilters, (typeof TIME_FILTERS)[number]> & Partial<Record<(typeof TIME_FILTERS)[number], string>> & { fields?: string };

/** Turns the query into store filters; bad times get EMQX's INVALID_PARAMETER message (§9.1). */
function filtersOf(query: FilterQuery): { filters: ClientFilters; fields?: string[] } {
  const { fields, ...rest } = query;
  const filters = { ...rest } as ClientFilters;
  for (const key of TIME_FILTERS) {
    const value = query[key];
    if (value === undefined) continue;
    const ms = parseEpochMillisecond(value);
    if (ms === null) throw apiError(400, 'INVALID_PARAMETER', `the ${key} parameter expected type is timestamp, but the value is ${value}`);
    filters[key] = ms;
  }
  if (fields === undefined || fields === 'all') return { filters };
  const names = fields.split(',').map((f) => f.trim()).filter(Boolean);
  const unknown = names.filter((f) => !CLIENT_FIELDS.has(f));
  if (unknown.length > 0) throw apiError(400, 'INVALID_PARAMETER', `unknown fields: ${unknown.join(',')}`);
  return { filters, fields: names };
}

const params = { type: 'object', required: ['clientid'], properties: { clientid: { type: 'string', maxLength: 65535 } } };
// emqx_mgmt_api_clients.erl fields(subscribe) and fields(unsubscribe): hocon structs, so a field
// they lack is unknown_fields.
const subscribeBody = {
  type: 'object',
  required: ['topic'],
  additionalProperties: false,
  properties: {
    topic: { type: 'string', minLength: 1, maxLength: 65535 },
    qos: { type: 'integer', minimum: 0, maximum: 2, default: 0 },
    nl: { type: 'integer', minimum: 0, maximum: 1, default: 0 },
    rap: { type: 'integer', minimum: 0, maximum: 1, default: 0 },
    rh: { type: 'integer', minimum: 0, maximum: 2, default: 0 },
  },
} as const;
const unsubscribeBody = { type: 'object', required: ['topic'], additionalProperties: false, properties: { topic: { type: 'string', minLength: 1, maxLength: 65535 } } } as const;

interface ClientParams {
  clientid: string;
}

/**
 * Applies a new keepalive to a connected Aedes client as its CONNECT would have set it
 * ([MQTT-3.1.2-24]: 1.5 times the interval; 0 turns the check off), like emqx_channel.erl's
 * `{keepalive, Interval}` call resets the channel's keepalive timer.
 */
function resetKeepalive(client: Client, seconds: number): void {
  const c = client as unknown as { _keepaliveTimer: NodeJS.Timeout | null; _keepaliveInterval: number; broker: { emit(e: string, c: unknown): void }; emit(e: string, err: Error): void };
  if (c._keepaliveTimer) clearTimeout(c._keepaliveTimer);
  c._keepaliveTimer = null;
  c._keepaliveInterval = -1;
  if (seconds === 0) return;
  c._keepaliveInterval = seconds * 1500 + 1;
  c._keepaliveTimer = setTimeout(() => {
    c.broker.emit('keepaliveTimeout', client);
    c.emit('error', new Error('keep alive timeout'));
  }, c._keepaliveInterval);
}

// emqx_mgmt_api_clients.erl (5.8.9) client_msgs_params/0 and the position codecs.
const msgsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    payload: { type: 'string', enum: ['none', 'base64', 'plain'], default: 'base64' },
    max_payload_bytes: { anyOf: [{ type: 'string', maxLength: 32 }, { type: 'integer', minimum: 0 }], default: '1MB' },
    position: { type: 'string', maxLength: 64 },
    limit: pageQueryProperties.limit,
  },
} as const;
const MQUEUE_POSITION = /^\d+_(\d+|infinity)$/;
const INFLIGHT_POSITION = /^\d+$/;

export default async function clients(app: FastifyInstance): Promise<void> {
  const { store, bridge } = app;

  app.get<{ Querystring: PageQuery & FilterQuery }>('/clients', {
    schema: {
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: { ...pageQueryProperties, node: { type: 'string', maxLength: 256 }, ...filterProperties },
      },
    },
  }, async (request) => {
    const { page, limit, ...query } = request.query;
    const { filters, fields } = filtersOf(query);
    return store.clients.list(filters, { page, limit }, fields);
  });

  // 5.7+ cursor paging, which the later official dashboards call (§2.2 envelope D).
  app.get<{ Querystring: { cursor?: string; limit: number } & FilterQuery }>('/clients_v2', {
    schema: {
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: { cursor: { type: 'string', maxLength: 512 }, limit: pageQueryProperties.limit, ...filterProperties },
      },
    },
  }, async (request) => {
    const { cursor, limit, ...query } = request.query;
    const { filters, fields } = filtersOf(query);
    return store.clients.listCursor(filters, cursor, limit, fields);
  });

  // emqx_mgmt_api_clients.erl (5.8.9) sessions_count/2: sessions of the cluster seen since
  // `since` (epoch seconds); the handler answers the count as a binary, which goes out as a bare
  // JSON number. Every session here is live or kept in memory, so all of them count.
  app.get<{ Querystring: { since?: number } }>('/sessions_count', {
    schema: { querystring: { type: 'object', additionalProperties: false, properties: { since: { type: 'integer', minimum: 0 } } } },
  }, async (_request, reply) => reply.type('application/json; charset=utf-8').send(String(store.cluster.totalSessions())));

  app.get<{ Params: ClientParams }>('/clients/:clientid', { schema: { params } }, async (request) =>
    store.clients.view(store.clients.get(request.params.clientid)));

  app.delete<{ Params: ClientParams }>('/clients/:clientid', { schema: { params } }, async (request, reply) => {
    await bridge.kick(request.params.clientid);
    return reply.code(204).send();
  });

  app.post<{ Body: string[] }>('/clients/kickout/bulk', {
    schema: { body: { type: 'array', items: { type: 'string', maxLength: 65535 }, maxItems: 10000 } },
  }, async (request, reply) => {
    for (const clientid of request.body) if (store.clients.find(clientid)) await bridge.kick(clientid);
    return reply.code(204).send();
  });

  // Formatted by emqx_mgmt_api_subscriptions.erl format/2, `durable` included (5.8; the profile
  // leaves it out before).
  app.get<{ Params: ClientParams }>('/clients/:clientid/subscriptions', { schema: { params } }, async (request) =>
    store.clients.subscriptionsOf(store.clients.get(request.params.clientid)).map((s) => ({ ...s, durable: false })));

  app.post<{ Params: ClientParams; Body: SubscribeRequest }>('/clients/:clientid/subscribe', {
    schema: { params, body: subscribeBody },
  }, async (request) => {
    const [result] = await bridge.subscribe(request.params.clientid, [request.body]);
    return result;
  });

  // All or nothing is not EMQX's way: good entries are subscribed, bad ones reported (§9.3).
  app.post<{ Params: ClientParams; Body: SubscribeRequest[] }>('/clients/:clientid/subscribe/bulk', {
    schema: { params, body: { type: 'array', items: subscribeBody, minItems: 1, maxItems: 1000 } },
  }, async (request) => {
    const { clientid } = request.params;
    store.clients.get(clientid);
    const good = request.body.filter((r) => subscribeProblem(r) === null);
    const succeed = good.length > 0 ? await bridge.subscribe(clientid, good) : [];
    if (good.length === request.body.length) return succeed;
    const failed = request.body
      .filter((r) => subscribeProblem(r) !== null)
      .map(({ topic, ...opts }) => ({ data: [clientid, topic, opts], reason: subscribeProblem({ topic, ...opts }) }));
    return { succeed, failed };
  });

  app.post<{ Params: ClientParams; Body: { topic: string } }>('/clients/:clientid/unsubscribe', {
    schema: { params, body: unsubscribeBody },
  }, async (request, reply) => {
    await bridge.unsubscribe(request.params.clientid, [request.body.topic]);
    return reply.code(204).send();
  });

  app.post<{ Params: ClientParams; Body: { topic: string }[] }>('/clients/:clientid/unsubscribe/bulk', {
    schema: { params, body: { type: 'array', items: unsubscribeBody, minItems: 1, maxItems: 1000 } },
  }, async (request, reply) => {
    await bridge.unsubscribe(request.params.clientid, request.body.map((t) => t.topic));
    return reply.code(204).send();
  });

  // set_keepalive/2: 200 with the client; only a connected client has a channel to change.
  app.put<{ Params: ClientParams; Body: { interval?: number } }>('/clients/:clientid/keepalive', {
    schema: { params, body: { type: 'object', additionalProperties: false, properties: { interval: { type: 'integer', minimum: 0, maximum: 65535 } } } },
  }, async (request) => {
    const { interval } = request.body ?? {};
    if (interval === undefined) throw apiError(400, 'BAD_REQUEST', 'Interval Not Found');
    const located = store.clients.find(request.params.clientid);
    if (!located || !store.clients.view(located).connected) throw apiError(404, 'CLIENTID_NOT_FOUND', 'Client ID not found');
    located.record.keepalive = interval;
    if (located.session?.client) resetKeepalive(located.session.client, interval);
    return store.clients.view(located);
  });

  // 5.6+: the queued and in-flight messages of a session (emqx_mgmt_api_clients.erl 5.8.9
  // list_client_msgs/3, format_msgs/4), paged by insertion position; an offline session has them too.
  for (const [kind, pattern] of [['mqueue', MQUEUE_POSITION], ['inflight', INFLIGHT_POSITION]] as const) {
    app.get<{ Params: ClientParams; Querystring: { position?: string; limit: number; payload: 'none' | 'base64' | 'plain'; max_payload_bytes: string | number } }>(`/clients/:clientid/${kind}_messages`, {
      schema: { params, querystring: msgsQuery },
    }, async (request, reply) => {
      const { position, limit, payload: encoding, max_payload_bytes: maxBytes } = request.query;
      if (position !== undefined && position !== 'none' && position !== 'end_of_data' && !pattern.test(position)) {
        throw apiError(400, 'INVALID_PARAMETER', 'position_limit_invalid');
      }
      const max = parseBytesize(maxBytes);
      if (max === null || max <= 0) throw apiError(400, 'INVALID_PARAMETER', `max_payload_bytes: invalid byte size ${JSON.stringify(maxBytes)}`);
      const { clientid } = request.params;
      const located = store.clients.find(clientid);
      if (!located) throw apiError(404, 'CLIENTID_NOT_FOUND', 'Client ID not found');
      const page = located.session ? store.clients.sessionQueues?.messages(clientid, kind, position === 'none' || position === 'end_of_data' ? undefined : position, limit) : null;
      if (!page) {
        // Clients of the other nodes have no queues here; only a live one answers.
        if (located.session || !store.clients.view(located).connected) throw apiError(404, 'CLIENTID_NOT_FOUND', 'Client ID not found');
        return { data: [], meta: { start: 'none', position: 'none' } };
      }
      // The payloads of a page stay within max_payload_bytes, except that the first is always given.
      const data: Record<string, unknown>[] = [];
      let bytes = 0;
      for (const m of page.data) {
        const { payload, ...rest } = m;
        const row: Record<string, unknown> = rest;
        let size = 0;
        if (encoding === 'base64') {
          row.payload = payload.toString('base64');
          size = (row.payload as string).length;
        } else if (encoding === 'plain') {
          if (!isUtf8(payload)) throw apiError(400, 'INVALID_PARAMETER', 'Some message payloads are not JSON serializable');
          row.payload = payload.toString('utf8');
          size = payload.length;
        }
        if (data.length > 0 && bytes + size > max) break;
        bytes += size;
        data.push(row);
      }
      return reply.send({ data, meta: { start: page.start, position: page.position } });
    });
  }

  app.get<{ Params: ClientParams }>('/clients/:clientid/authorization/cache', { schema: { params } }, async (request) =>
    bridge.authzCache(request.params.clientid));

  app.delete<{ Params: ClientParams }>('/clients/:clientid/authorization/cache', { schema: { params } }, async (request, reply) => {
    bridge.clearAuthzCache(request.params.clientid);
    return reply.code(204).send();
  });
}
