// EMQX emqx_authn_api and emqx_authn_user_import_api: the authentication chain, positions and
// order, status, and built-in database users with paging and import (emqx-api-part2 §2).
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { uploadPlugin, uploadedFile } from '../plugins/upload.ts';
import { parseUserFile } from '../store/access/authn.ts';
import { pageQueryProperties } from '../store/pagination.ts';
import { namespaceOf } from './namespace.ts';

type Json = Record<string, any>;

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 256 } } } as const;
const userParams = {
  type: 'object', required: ['id', 'user_id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 256 }, user_id: { type: 'string', minLength: 1, maxLength: 1024 } },
} as const;
const object = { type: 'object' } as const;
// emqx_authn_api.erl fields(request_user_create) and fields(request_user_update) (v5.5.1 to 6.2.2):
// user_id (create only), password, is_superuser, and from 6.0 `namespace` (store/profile.ts
// FIELDS refuses it before); emqx_dashboard_swagger.erl check_request_body/5 checks the body as one
// struct, so any other field is refused as hocon's unknown_fields.
const userUpdate = { password: {}, is_superuser: {}, namespace: {} } as const;
const userUpdateBody = { type: 'object', additionalProperties: false, properties: userUpdate } as const;
const userCreateBody = { type: 'object', additionalProperties: false, properties: { user_id: {}, ...userUpdate } } as const;
// emqx_authn_api.erl fields(request_authn_order) (v5.8.9 to 6.2.2): an array of `{id}`.
const orderBody = { type: 'array', items: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string' } } } } as const;
// A multipart file upload, or a JSON array of users.
const importSchema = {
  consumes: ['multipart/form-data', 'application/json'],
  params: idParams,
  querystring: { type: 'object', properties: { type: { type: 'string', enum: ['plain', 'hash'] } } },
  body: { anyOf: [{ type: 'object' }, { type: 'array' }] },
};

// The console sends ids URL-encoded (`password_based%3Abuilt_in_database`); Fastify has decoded them.
function id(params: { id: string }): string {
  return params.id;
}

export default async function authentication(app: FastifyInstance): Promise<void> {
  const { store } = app;
  // Import files of 10 000 users and more.
  await uploadPlugin(app, 64 * 1024 * 1024);

  app.get('/authentication', async () => store.authn.list());

  app.post<{ Body: Json }>('/authentication', { schema: { body: object } }, async (request) => store.authn.create(request.body));

  app.put<{ Body: unknown }>('/authentication/order', { schema: { body: orderBody } }, async (request, reply) => {
    await store.authn.order((request.body as { id: string }[]).map((e) => e.id));
    return reply.code(204).send();
  });

  app.get<{ Params: { id: string } }>('/authentication/:id', { schema: { params: idParams } }, async (request) => store.authn.get(id(request.params)));

  app.put<{ Params: { id: string }; Body: Json }>('/authentication/:id', { schema: { params: idParams, body: object } }, async (request, reply) => {
    await store.authn.update(id(request.params), request.body);
    return reply.code(204).send();
  });

  app.delete<{ Params: { id: string } }>('/authentication/:id', { schema: { params: idParams } }, async (request, reply) => {
    await store.authn.remove(id(request.params));
    return reply.code(204).send();
  });

  app.get<{ Params: { id: string } }>('/authentication/:id/status', { schema: { params: idParams } }, async (request) => store.authn.status(id(request.params)));

  app.put<{ Params: { id: string; position: string } }>('/authentication/:id/position/:position', {
    config: { noBody: true },
    schema: { params: { type: 'object', required: ['id', 'position'], properties: { id: { type: 'string', maxLength: 256 }, position: { type: 'string', maxLength: 300 } } } },
  }, async (request, reply) => {
    await store.authn.move(id(request.params), request.params.position);
    return reply.code(204).send();
  });

  app.get<{ Params: { id: string }; Querystring: { page: number; limit: number; like_user_id?: string; is_superuser?: boolean } }>('/authentication/:id/users', {
    schema: {
      params: idParams,
      querystring: { type: 'object', properties: { ...pageQueryProperties, like_user_id: { type: 'string', maxLength: 1024 }, is_superuser: { type: 'boolean' } } },
    },
  }, async (request) => store.authn.listUsers(id(request.params), request.query, namespaceOf(store, request)));

  app.post<{ Params: { id: string }; Body: Json }>('/authentication/:id/users', { schema: { params: idParams, body: userCreateBody } }, async (request, reply) => {
    return reply.code(201).send(await store.authn.addUser(id(request.params), request.body, namespaceOf(store, request)));
  });

  app.get<{ Params: { id: string; user_id: string } }>('/authentication/:id/users/:user_id', { schema: { params: userParams } },
    async (request) => store.authn.getUser(id(request.params), request.params.user_id, namespaceOf(store, request)));

  app.put<{ Params: { id: string; user_id: string }; Body: Json }>('/authentication/:id/users/:user_id', { schema: { params: userParams, body: userUpdateBody } },
    async (request) => store.authn.updateUser(id(request.params), request.params.user_id, request.body, namespaceOf(store, request)));

  app.delete<{ Params: { id: string; user_id: string } }>('/authentication/:id/users/:user_id', { schema: { params: userParams } }, async (request, reply) => {
    await store.authn.removeUser(id(request.params), request.params.user_id, namespaceOf(store, request, true));
    return reply.code(204).send();
  });

  app.post<{ Params: { id: string }; Querystring: { type?: 'plain' | 'hash' } }>('/authentication/:id/import_users', {
    schema: importSchema,
  }, async (request) => {
    const type = request.query.type ?? 'hash';
    const authId = id(request.params);
    const contentType = String(request.headers['content-type'] ?? '');
    let rows: Json[];
    if (contentType.startsWith('multipart/form-data')) {
      const file = uploadedFile(request.body, 'filename');
      if (!file) throw apiError(400, 'BAD_REQUEST', 'Missing required parameter: filename');
      rows = parseUserFile(file.filename, file.data.toString('utf8'));
    } else {
      if (!Array.isArray(request.body)) throw apiError(400, 'BAD_REQUEST', 'Missing required parameter: filename');
      rows = request.body as Json[];
    }
    return store.authn.importUsers(authId, type, rows);
  });
}
