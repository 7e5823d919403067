// EMQX module emqx_dashboard_api (login part): POST /login and POST /logout.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';

interface LoginBody {
  username: string;
  password: string;
}

const loginSchema = {
  body: {
    type: 'object',
    required: ['username', 'password'],
    additionalProperties: false,
    properties: {
      username: { type: 'string', maxLength: 100 },
      password: { type: 'string', maxLength: 100 },
    },
  },
};

const logoutSchema = {
  body: {
    type: 'object',
    required: ['username'],
    additionalProperties: false,
    properties: { username: { type: 'string', maxLength: 100 } },
  },
};

export default async function login(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.post<{ Body: LoginBody }>('/login', { schema: loginSchema, config: { public: true } }, async (request) => {
    const { username, password } = request.body;
    const guard = store.loginGuard;
    guard.admit(request.ip, username);
    if (!(await store.users.verify(username, password))) {
      guard.recordFailure(username);
      throw apiError(401, 'BAD_USERNAME_OR_PWD', 'Auth failed');
    }
    guard.recordSuccess(username);
    // emqx_dashboard_api.erl login/2: `role` only where RBAC is built in (the profile drops it elsewhere).
    return { role: store.users.role(username), token: store.tokens.issue(username), version: store.profile.version, license: { edition: store.profile.edition } };
  });

  app.post<{ Body: { username: string } }>('/logout', { schema: logoutSchema }, async (request, reply) => {
    const principal = request.principal;
    if (principal?.kind !== 'user' || principal.name !== request.body.username) {
      throw apiError(401, 'WRONG_TOKEN_OR_USERNAME', 'Ensure your token & username');
    }
    store.tokens.revokeUser(principal.name);
    return reply.code(204).send();
  });
}
