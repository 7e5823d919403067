// EMQX module emqx_dashboard_api (users part): /users and /users/{username}/change_pwd.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../plugins/errors.ts';
import type { DashboardRole } from '../store/state.ts';

const username = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[_a-zA-Z0-9]*$' } as const;
const password = { type: 'string', maxLength: 100 } as const;
const description = { type: 'string', maxLength: 1000 } as const;
// emqx_dashboard_rbac.erl valid_dashboard_role/1; the profile refuses the field without RBAC.
const role = { type: 'string', enum: ['administrator', 'viewer'] } as const;
const userParams = { type: 'object', required: ['username'], properties: { username: { type: 'string', maxLength: 100 } } };
// The response schema is a second fence: only these two fields can ever leave (S4).
const user = { type: 'object', properties: { username: { type: 'string' }, role: { type: 'string' }, description: { type: 'string' }, backend: { type: 'string' } } };

interface UserParams {
  username: string;
}

export default async function users(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.get('/users', { schema: { response: { 200: { type: 'array', items: user } } } }, async () => store.users.list());

  app.post<{ Body: { username: string; password: string; description?: string; role?: DashboardRole } }>('/users', {
    schema: {
      body: {
        type: 'object',
        required: ['username', 'password'],
        additionalProperties: false,
        properties: { username, password, description, role },
      },
      response: { 200: user },
    },
  }, async (request) => {
    const { username: name, password: secret, description: text = '', role: given } = request.body;
    return store.users.create(name, secret, text, given);
  });

  app.put<{ Params: UserParams; Body: { description: string; role?: DashboardRole } }>('/users/:username', {
    schema: {
      params: userParams,
      body: { type: 'object', required: ['description'], additionalProperties: false, properties: { description, role } },
      response: { 200: user },
    },
  }, async (request) => store.users.update(request.params.username, request.body.description, request.body.role));

  app.delete<{ Params: UserParams }>('/users/:username', { schema: { params: userParams } }, async (request, reply) => {
    await store.users.remove(request.params.username, request.principal?.name ?? null);
    return reply.code(204).send();
  });

  app.post<{ Params: UserParams; Body: { old_pwd: string; new_pwd: string } }>('/users/:username/change_pwd', {
    schema: {
      params: userParams,
      body: {
        type: 'object',
        required: ['old_pwd', 'new_pwd'],
        additionalProperties: false,
        properties: { old_pwd: password, new_pwd: password },
      },
    },
  }, async (request, reply) => {
    const name = request.params.username;
    // The old password is a guess like a login's (S2): the same rate limit, lockout and codes.
    store.loginGuard.admit(request.ip, name);
    try {
      await store.users.changePassword(name, request.body.old_pwd, request.body.new_pwd);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ERROR_PWD_NOT_MATCH') store.loginGuard.recordFailure(name);
      throw err;
    }
    store.loginGuard.recordSuccess(name);
    return reply.code(204).send();
  });
}
