// EMQX emqx_gateway_api*: gateways, their listeners, authentication and clients (§19). Gateway
// errors use RESOURCE_NOT_FOUND for 404; listener sockets are opened on ready and closed on close.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { uploadPlugin, uploadedFile } from '../plugins/upload.ts';
import { parseUserFile } from '../store/access/authn.ts';
import { GATEWAY_NAMES } from '../store/config/gateways.ts';
import { treeRoot } from '../store/config/release-tree.ts';
import { entryFields, refuseUnknownFields, unionMember } from '../store/config/schema-check.ts';
import { pageQueryProperties, type PageQuery } from '../store/pagination.ts';

type Conf = Record<string, any>;
interface GwParams {
  name: string;
}
interface ListenerParams extends GwParams {
  id: string;
}
interface UserParams extends GwParams {
  uid: string;
}
interface ClientParams extends GwParams {
  clientid: string;
}

const nameParam = { type: 'string', enum: [...GATEWAY_NAMES] } as const;
const gwParams = { type: 'object', required: ['name'], properties: { name: nameParam } } as const;
const listenerParams = { type: 'object', required: ['name', 'id'], properties: { name: nameParam, id: { type: 'string', maxLength: 256 } } } as const;
const userParams = { type: 'object', required: ['name', 'uid'], properties: { name: nameParam, uid: { type: 'string', maxLength: 256 } } } as const;
const clientParams = { type: 'object', required: ['name', 'clientid'], properties: { name: nameParam, clientid: { type: 'string', maxLength: 1024 } } } as const;
const anyObject = { type: 'object', additionalProperties: true } as const;
const listenerView = {
  type: 'object',
  additionalProperties: true,
  properties: { id: { type: 'string' }, type: { type: 'string' }, name: { type: 'string' }, running: { type: 'boolean' }, bind: { type: 'string' } },
} as const;
const gatewayView = {
  type: 'object',
  additionalProperties: true,
  properties: { name: { type: 'string' }, status: { type: 'string' }, created_at: { type: 'string' }, listeners: { type: 'array', items: listenerView } },
} as const;
const user = { type: 'object', properties: { user_id: { type: 'string' }, is_superuser: { type: 'boolean' } } } as const;
const pageMeta = {
  type: 'object',
  properties: { page: { type: 'integer' }, limit: { type: 'integer' }, hasnext: { type: 'boolean' }, count: { type: 'integer' } },
} as const;
const subscription = {
  type: 'object',
  properties: {
    topic: { type: 'string' }, qos: { type: 'integer' }, nl: { type: 'integer' }, rap: { type: 'integer' }, rh: { type: 'integer' },
    sub_props: { type: 'object', additionalProperties: true },
  },
} as const;
const clientQuery = {
  type: 'object',
  properties: {
    ...pageQueryProperties,
    node: { type: 'string' }, clientid: { type: 'string' }, username: { type: 'string' }, ip_address: { type: 'string' },
    conn_state: { type: 'string', enum: ['connected', 'idle', 'disconnected'] }, proto_ver: { type: 'string' }, clean_start: { type: 'boolean' },
    like_clientid: { type: 'string' }, like_username: { type: 'string' },
    gte_created_at: { anyOf: [{ type: 'integer' }, { type: 'string' }] }, lte_created_at: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
    gte_connected_at: { anyOf: [{ type: 'integer' }, { type: 'string' }] }, lte_connected_at: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
    endpoint_name: { type: 'string' }, like_endpoint_name: { type: 'string' }, gte_lifetime: { type: 'integer' }, lte_lifetime: { type: 'integer' },
  },
} as const;

/**
 * hocon's unknown-field check of a gateway listener body: emqx_gateway_api.erl listener_schema/0
 * (v5.5.1 to 6.2.2) picks the struct of the body's `type` (or the id's), `id`, `type`, `name` and
 * `running` beside emqx_gateway_schema.erl's listener fields, which the release's config tree has
 * under gateway.<name>.listeners.<type> (`enable` and `authentication` there are left out of the 5.8+ dumps).
 */
function refuseUnknownListenerFields(version: Parameters<typeof entryFields>[0], gateway: string, body: Conf, id?: string): void {
  const type = typeof body.type === 'string' ? body.type : id?.split(':')[1];
  const listeners = entryFields(version, 'gateway', gateway)?.find((f) => f.text === 'listeners')?.refs?.[0]?.fields;
  const fields = listeners?.find((f) => f.text === type)?.refs?.[0]?.fields;
  if (fields) refuseUnknownFields(fields, body, ['id', 'type', 'name', 'running', 'enable', 'authentication']);
}

/**
 * The same for a gateway authenticator: emqx_gateway_api_authn.erl schema_authn/0 (v5.5.1 to 6.2.2),
 * emqx_authn_schema.erl authenticator_type_without/1, the member of the release's `authentication`
 * union that the body's mechanism and backend pick.
 */
function refuseUnknownAuthnFields(version: Parameters<typeof entryFields>[0], body: Conf): void {
  const member = unionMember(treeRoot(version, 'authentication'), body, ['mechanism', 'backend']);
  if (member) refuseUnknownFields(member, body, ['enable']);
}

export default async function gateways(app: FastifyInstance): Promise<void> {
  const { store } = app;
  const gw = store.gateways;

  // Persisted, enabled gateways bind their listeners at start; a busy port leaves that listener
  // stopped (running: false) rather than failing the start.
  app.addHook('onReady', async () => {
    const failure = await gw.reconcile();
    if (failure) app.log.warn(failure.message);
  });
  app.addHook('onClose', async () => {
    await gw.closeAll();
  });
  store.onStateReplaced(async () => {
    await gw.reconcile();
  });

  app.get<{ Querystring: { status?: string } }>('/gateways', {
    schema: {
      querystring: { type: 'object', properties: { status: { type: 'string', maxLength: 32 } } },
      response: { 200: { type: 'array', items: anyObject } },
    },
  }, async (request) => {
    const { status } = request.query;
    if (status !== undefined && !['running', 'stopped', 'unloaded'].includes(status)) {
      throw apiError(400, 'BAD_REQUEST', `Unknown gateway status in query: ${status}`);
    }
    return gw.overview(status);
  });

  app.get<{ Params: GwParams }>('/gateways/:name', { schema: { params: gwParams, response: { 200: gatewayView } } },
    async (request) => gw.get(request.params.name));

  app.put<{ Params: GwParams; Body: Conf }>('/gateways/:name', { schema: { params: gwParams, body: anyObject } }, async (request, reply) => {
    await gw.put(request.params.name, request.body);
    return reply.code(204).send();
  });

  app.put<{ Params: GwParams & { enable: string } }>('/gateways/:name/enable/:enable', {
    config: { noBody: true },
    schema: { params: { type: 'object', required: ['name', 'enable'], properties: { name: nameParam, enable: { type: 'string', enum: ['true', 'false'] } } } },
  }, async (request, reply) => {
    await gw.enable(request.params.name, request.params.enable === 'true');
    return reply.code(204).send();
  });

  // Listeners.
  app.get<{ Params: GwParams }>('/gateways/:name/listeners', { schema: { params: gwParams, response: { 200: { type: 'array', items: anyObject } } } },
    async (request) => gw.listListeners(request.params.name));
  app.post<{ Params: GwParams; Body: Conf }>('/gateways/:name/listeners', { schema: { params: gwParams, body: anyObject, response: { 201: listenerView } } },
    async (request, reply) => {
      refuseUnknownListenerFields(store.profile.version, request.params.name, request.body);
      return reply.code(201).send(await gw.createListener(request.params.name, request.body));
    });
  app.get<{ Params: ListenerParams }>('/gateways/:name/listeners/:id', { schema: { params: listenerParams, response: { 200: listenerView } } },
    async (request) => gw.getListener(request.params.name, request.params.id));
  app.put<{ Params: ListenerParams; Body: Conf }>('/gateways/:name/listeners/:id', { schema: { params: listenerParams, body: anyObject, response: { 200: listenerView } } },
    async (request) => {
      refuseUnknownListenerFields(store.profile.version, request.params.name, request.body, request.params.id);
      return gw.updateListener(request.params.name, request.params.id, request.body);
    });
  app.delete<{ Params: ListenerParams }>('/gateways/:name/listeners/:id', { schema: { params: listenerParams } }, async (request, reply) => {
    await gw.removeListener(request.params.name, request.params.id);
    return reply.code(204).send();
  });

  // Authentication, at gateway level and per listener.
  for (const [prefix, params] of [['/gateways/:name', gwParams], ['/gateways/:name/listeners/:id', listenerParams]] as const) {
    type P = { name: string; id?: string };
    app.get<{ Params: P }>(`${prefix}/authentication`, { schema: { params, response: { 200: anyObject } } }, async (request, reply) => {
      const auth = gw.getAuth(request.params.name, request.params.id);
      return auth ? auth : reply.code(204).send();
    });
    app.post<{ Params: P; Body: Conf }>(`${prefix}/authentication`, { schema: { params, body: anyObject, response: { 201: anyObject } } },
      async (request, reply) => {
        refuseUnknownAuthnFields(store.profile.version, request.body);
        return reply.code(201).send(await gw.createAuth(request.params.name, request.body, request.params.id));
      });
    app.put<{ Params: P; Body: Conf }>(`${prefix}/authentication`, { schema: { params, body: anyObject, response: { 200: anyObject } } },
      async (request) => {
        refuseUnknownAuthnFields(store.profile.version, request.body);
        return gw.updateAuth(request.params.name, request.body, request.params.id);
      });
    app.delete<{ Params: P }>(`${prefix}/authentication`, { schema: { params } }, async (request, reply) => {
      await gw.removeAuth(request.params.name, request.params.id);
      return reply.code(204).send();
    });
  }

  // User import files (hash type only), at gateway level and per listener: the multipart upload of
  // the authentication routes, field `filename` (emqx_gateway_api_authn_user_import.erl).
  await uploadPlugin(app, 64 * 1024 * 1024);
  for (const [prefix, params] of [['/gateways/:name', gwParams], ['/gateways/:name/listeners/:id', listenerParams]] as const) {
    type P = { name: string; id?: string };
    const importSchema = { consumes: ['multipart/form-data'], params, body: { type: 'object' } };
    app.post<{ Params: P }>(`${prefix}/authentication/import_users`, { schema: importSchema }, async (request) => {
      const file = uploadedFile(request.body, 'filename');
      if (!file) throw apiError(400, 'BAD_REQUEST', 'Missing required parameter: filename');
      return gw.importUsers(request.params.name, parseUserFile(file.filename, file.data.toString('utf8')), request.params.id);
    });
  }

  // Built-in database users, at gateway level and per listener.
  const listenerUserParams = { type: 'object', required: ['name', 'id', 'uid'], properties: { ...listenerParams.properties, uid: { type: 'string', maxLength: 256 } } } as const;
  for (const [prefix, params, oneParams] of [['/gateways/:name', gwParams, userParams], ['/gateways/:name/listeners/:id', listenerParams, listenerUserParams]] as const) {
    type P = { name: string; id?: string };
    type U = P & { uid: string };
    app.get<{ Params: P; Querystring: PageQuery & { like_user_id?: string; is_superuser?: boolean } }>(`${prefix}/authentication/users`, {
      schema: {
        params,
        querystring: { type: 'object', properties: { ...pageQueryProperties, like_user_id: { type: 'string', maxLength: 256 }, is_superuser: { type: 'boolean' } } },
        response: { 200: { type: 'object', properties: { data: { type: 'array', items: user }, meta: pageMeta } } },
      },
    }, async (request) => gw.listUsers(request.params.name, request.query, request.params.id));
    app.post<{ Params: P; Body: { user_id: string; password: string; is_superuser?: boolean } }>(`${prefix}/authentication/users`, {
      schema: {
        params,
        body: {
          type: 'object', required: ['user_id', 'password'], additionalProperties: false,
          properties: { user_id: { type: 'string', minLength: 1, maxLength: 256 }, password: { type: 'string', minLength: 1, maxLength: 256 }, is_superuser: { type: 'boolean' } },
        },
        response: { 201: user },
      },
    }, async (request, reply) => reply.code(201).send(await gw.addUser(request.params.name, request.body, request.params.id)));
    app.get<{ Params: U }>(`${prefix}/authentication/users/:uid`, { schema: { params: oneParams, response: { 200: user } } },
      async (request) => gw.getUser(request.params.name, request.params.uid, request.params.id));
    app.put<{ Params: U; Body: { password?: string; is_superuser?: boolean } }>(`${prefix}/authentication/users/:uid`, {
      schema: {
        params: oneParams,
        body: { type: 'object', additionalProperties: false, properties: { password: { type: 'string', minLength: 1, maxLength: 256 }, is_superuser: { type: 'boolean' } } },
        response: { 200: user },
      },
    }, async (request) => gw.updateUser(request.params.name, request.params.uid, request.body ?? {}, request.params.id));
    app.delete<{ Params: U }>(`${prefix}/authentication/users/:uid`, { schema: { params: oneParams } }, async (request, reply) => {
      await gw.removeUser(request.params.name, request.params.uid, request.params.id);
      return reply.code(204).send();
    });
  }

  // Clients.
  app.get<{ Params: GwParams; Querystring: PageQuery & Record<string, unknown> }>('/gateways/:name/clients', {
    schema: { params: gwParams, querystring: clientQuery, response: { 200: { type: 'object', properties: { data: { type: 'array', items: anyObject }, meta: pageMeta } } } },
  }, async (request) => gw.listClients(request.params.name, request.query));
  app.get<{ Params: ClientParams }>('/gateways/:name/clients/:clientid', { schema: { params: clientParams, response: { 200: anyObject } } },
    async (request) => gw.getClient(request.params.name, request.params.clientid));
  app.delete<{ Params: ClientParams }>('/gateways/:name/clients/:clientid', { schema: { params: clientParams } }, async (request, reply) => {
    gw.kick(request.params.name, request.params.clientid);
    return reply.code(204).send();
  });
  app.get<{ Params: ClientParams }>('/gateways/:name/clients/:clientid/subscriptions', {
    schema: { params: clientParams, response: { 200: { type: 'array', items: subscription } } },
  }, async (request) => gw.subscriptions(request.params.name, request.params.clientid));
  app.post<{ Params: ClientParams; Body: Conf }>('/gateways/:name/clients/:clientid/subscriptions', {
    schema: {
      params: clientParams,
      // emqx_gateway_api_clients.erl fields(subscription) and fields(extra_sub_props) (v5.5.1 to 6.2.2).
      body: {
        type: 'object',
        additionalProperties: false,
        properties: {
          topic: { type: 'string', minLength: 1, maxLength: 65535 }, qos: { type: 'integer', minimum: 0, maximum: 2 },
          nl: { type: 'integer', minimum: 0, maximum: 1 }, rap: { type: 'integer', minimum: 0, maximum: 1 }, rh: { type: 'integer', minimum: 0, maximum: 2 },
          sub_props: { type: 'object', additionalProperties: false, properties: { subid: { type: 'string' } } },
        },
      },
      response: { 201: subscription },
    },
  }, async (request, reply) => {
    if (typeof request.body?.topic !== 'string') throw apiError(400, 'BAD_REQUEST', 'Miss topic property');
    return reply.code(201).send(gw.subscribe(request.params.name, request.params.clientid, request.body));
  });
  // Protocol-specific calls (§19.5). The fixture devices never answer: a lookup reports
  // "reply_not_received", commands are accepted, and a CoAP request times out.
  const lwm2mParams = { type: 'object', required: ['clientid'], properties: { clientid: { type: 'string', maxLength: 1024 } } } as const;
  const lwm2mPath = { type: 'string', minLength: 1, maxLength: 256, pattern: '^/' } as const;
  const clientMissing = () => apiError(404, 'CLIENT_NOT_FOUND', 'Client not found');
  const withClient = (gateway: string, clientid: string) => {
    try {
      gw.getClient(gateway, clientid);
    } catch {
      throw clientMissing();
    }
  };
  app.get<{ Params: { clientid: string }; Querystring: { path: string; action: string } }>('/gateways/lwm2m/clients/:clientid/lookup', {
    schema: {
      params: lwm2mParams,
      querystring: { type: 'object', required: ['path', 'action'], properties: { path: lwm2mPath, action: { type: 'string', enum: ['discover', 'read'] } } },
      response: { 200: { type: 'object', additionalProperties: true } },
    },
  }, async (request) => {
    withClient('lwm2m', request.params.clientid);
    return { clientid: request.params.clientid, path: request.query.path, action: request.query.action, code: '6.01', codeMsg: 'reply_not_received' };
  });
  for (const [action, query] of [
    ['observe', { path: lwm2mPath, enable: { type: 'boolean' } }],
    ['read', { path: lwm2mPath }],
    ['write', { path: lwm2mPath, type: { type: 'string', enum: ['Integer', 'Float', 'Time', 'String', 'Boolean', 'Opaque', 'Objlnk'] }, value: { type: 'string', maxLength: 65535 } }],
  ] as const) {
    app.post<{ Params: { clientid: string } }>(`/gateways/lwm2m/clients/:clientid/${action}`, {
      config: { noBody: true },
      schema: { params: lwm2mParams, querystring: { type: 'object', required: ['path'], properties: query } },
    }, async (request, reply) => {
      withClient('lwm2m', request.params.clientid);
      return reply.code(204).send();
    });
  }
  app.post<{ Params: { clientid: string } }>('/gateways/coap/clients/:clientid/request', {
    schema: {
      params: lwm2mParams,
      body: {
        type: 'object',
        required: ['timeout', 'content_type'],
        properties: {
          token: { type: 'string', maxLength: 64 }, method: { type: 'string', enum: ['get', 'put', 'post', 'delete'] },
          timeout: { type: 'string', pattern: '^\\d+(ms|s|m)?$' },
          content_type: { type: 'string', enum: ['text/plain', 'application/json', 'application/octet-stream'] }, payload: { type: 'string', maxLength: 65535 },
        },
      },
    },
  }, async (request) => {
    withClient('coap', request.params.clientid);
    throw apiError(504, 'CLIENT_NOT_RESPONSE', 'Client not response');
  });

  app.delete<{ Params: ClientParams & { topic: string } }>('/gateways/:name/clients/:clientid/subscriptions/:topic', {
    schema: { params: { type: 'object', required: ['name', 'clientid', 'topic'], properties: { ...clientParams.properties, topic: { type: 'string', maxLength: 65535 } } } },
  }, async (request, reply) => {
    gw.unsubscribe(request.params.name, request.params.clientid, request.params.topic);
    return reply.code(204).send();
  });
}
