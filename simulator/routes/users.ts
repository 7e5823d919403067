// EMQX module emqx_dashboard_api (users part): /users, /users/{username}/change_pwd and, from 5.9,
// /users/{username}/mfa and /user_scopes.
import type { FastifyInstance } from 'fastify';
import { ApiError, apiError } from '../plugins/errors.ts';
import { userCatalog } from '../store/dashboard/scopes.ts';
import type { DashboardRole } from '../store/state.ts';

const username = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[_a-zA-Z0-9]*$' } as const;
const password = { type: 'string', maxLength: 100 } as const;
const description = { type: 'string', maxLength: 1000 } as const;
// emqx_dashboard_rbac.erl valid_dashboard_role/1; the profile refuses the field without RBAC.
const role = { type: 'string', enum: ['administrator', 'viewer'] } as const;
const userParams = { type: 'object', required: ['username'], properties: { username: { type: 'string', maxLength: 100 } } };
// emqx_dashboard_api.erl field(scopes_request): a list of scope names; the profile refuses it before 5.9.
const scopes = { type: 'array', maxItems: 64, items: { type: 'string', maxLength: 64 } } as const;
// The response schema is a second fence: nothing but these fields can ever leave (S4), never the MFA secret.
const user = {
  type: 'object',
  properties: {
    username: { type: 'string' }, role: { type: 'string' }, description: { type: 'string' }, backend: { type: 'string' }, mfa: { type: 'string' },
    scopes: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
  },
};

interface UserParams {
  username: string;
}

export default async function users(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.get('/users', { schema: { response: { 200: { type: 'array', items: user } } } }, async () => store.users.list());

  app.post<{ Body: { username: string; password: string; description?: string; role?: DashboardRole; scopes?: string[] } }>('/users', {
    schema: {
      body: {
        type: 'object',
        required: ['username', 'password'],
        additionalProperties: false,
        properties: { username, password, description, role, scopes },
      },
      response: { 200: user },
    },
  }, async (request) => {
    const { username: name, password: secret, description: text = '', role: given, scopes: held } = request.body;
    return store.users.create(name, secret, text, given, held);
  });

  app.put<{ Params: UserParams; Body: { description: string; role?: DashboardRole; scopes?: string[] } }>('/users/:username', {
    schema: {
      params: userParams,
      body: { type: 'object', required: ['description'], additionalProperties: false, properties: { description, role, scopes } },
      response: { 200: user },
    },
  }, async (request) => store.users.update(request.params.username, request.body.description, request.body.role, request.body.scopes));

  // emqx_dashboard_api.erl change_mfa/2 (5.9 on): set up (a new secret, shown at the next login)
  // or turn off; the caller's right to do it is authorize_mfa_change/3's.
  app.post<{ Params: UserParams; Body: { mechanism: 'totp' } }>('/users/:username/mfa', {
    schema: {
      params: userParams,
      body: { type: 'object', required: ['mechanism'], additionalProperties: false, properties: { mechanism: { type: 'string', enum: ['totp'] } } },
    },
  }, async (request, reply) => {
    const target = request.params.username;
    const caller = mfaCaller(request.principal?.name);
    store.users.authorizeMfaChange(caller, target, 'setup');
    await store.users.setupMfa(target, caller.username !== target);
    return reply.code(204).send();
  });

  app.delete<{ Params: UserParams }>('/users/:username/mfa', { schema: { params: userParams } }, async (request, reply) => {
    const target = request.params.username;
    const caller = mfaCaller(request.principal?.name);
    store.users.authorizeMfaChange(caller, target, 'disable');
    await store.users.disableMfa(target, caller.username !== target);
    return reply.code(204).send();
  });

  app.get('/user_scopes', async () => ({ scopes: userCatalog() }));

  /** The Bearer caller of an MFA change (API keys never get here: plugins/auth.ts refuses them on /users). */
  function mfaCaller(name: string | undefined) {
    const role = name === undefined ? undefined : store.users.role(name);
    if (name === undefined || role === undefined) throw apiError(401, 'UNAUTHORIZED', 'Bearer auth required');
    return { username: name, role };
  }

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
