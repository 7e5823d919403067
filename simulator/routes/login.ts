// EMQX module emqx_dashboard_api (login part): POST /login and POST /logout.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';

interface LoginBody {
  username: string;
  password: string;
  mfa_token?: string;
}

const loginSchema = {
  body: {
    type: 'object',
    required: ['username', 'password'],
    additionalProperties: false,
    properties: {
      username: { type: 'string', maxLength: 100 },
      password: { type: 'string', maxLength: 100 },
      // emqx_dashboard_api.erl field(mfa_token) at e5.10.4: 'maxLength' => 9; the profile refuses it before 5.9.
      mfa_token: { type: 'string', maxLength: 9 },
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
    const { username, password, mfa_token: mfaToken } = request.body;
    const guard = store.loginGuard;
    // emqx_dashboard_admin.erl sign_token/3: a locked user is refused before anything is checked.
    guard.admit(request.ip, username);
    const outcome = await store.users.signIn(username, password, mfaToken);
    if (!outcome.ok && outcome.reason === 'mfa') {
      // emqx_dashboard_api.erl format_login_failed_error/1: the reason map is the message. Only a
      // wrong password counts towards the lock (register_unsuccessful_login/2).
      throw apiError(401, 'BAD_MFA_TOKEN', 'Bad MFA token', {}, outcome.mfa);
    }
    if (!outcome.ok) {
      guard.recordFailure(username);
      throw apiError(401, 'BAD_USERNAME_OR_PWD', 'Auth failed');
    }
    guard.recordSuccess(username);
    // emqx_dashboard_api.erl login/2: `role` only where RBAC is built in (the profile drops it
    // elsewhere); password_expire_in_seconds only with dashboard.password_expired_time set.
    return {
      role: store.users.role(username), token: store.tokens.issue(username), version: store.profile.version, license: { edition: store.profile.edition },
      ...(outcome.passwordExpireIn === undefined ? {} : { password_expire_in_seconds: outcome.passwordExpireIn }),
    };
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
