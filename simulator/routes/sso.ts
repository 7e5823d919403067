// EMQX module emqx_dashboard_sso_api (Enterprise): /sso, /sso/running, /sso/{backend}, /sso/login/{backend}.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { notFound, Sso, SSO_BACKENDS, type SsoBackend } from '../store/dashboard/sso.ts';

type Obj = Record<string, unknown>;

export default async function sso(app: FastifyInstance): Promise<void> {
  const { store } = app;
  const backends = new Sso(store);
  // The backends this release knows (the profile's VALUES row for /sso/:backend).
  const refused = new Set(store.profile.refusedValues('/sso/:backend').flatMap((row) => row.values));
  const known = SSO_BACKENDS.filter((b) => !refused.has(b));
  const params = { type: 'object', required: ['backend'], properties: { backend: { type: 'string', enum: known } } };
  const body = { type: 'object', required: ['backend'], properties: { backend: { type: 'string', enum: known } } };

  app.get('/sso', async () => backends.list());

  app.get('/sso/running', { config: { public: true } }, async () => backends.running());

  app.get<{ Params: { backend: SsoBackend } }>('/sso/:backend', { schema: { params } }, async (request) => backends.get(request.params.backend));

  app.put<{ Params: { backend: SsoBackend }; Body: Obj }>('/sso/:backend', { schema: { params, body } }, async (request) =>
    backends.put(request.params.backend, request.body));

  app.delete<{ Params: { backend: SsoBackend } }>('/sso/:backend', { schema: { params } }, async (request, reply) => {
    await backends.remove(request.params.backend);
    return reply.code(204).send();
  });

  // login/2: no state for the backend → 404; a configured backend never runs here, so the
  // provider's login fails as a stopped resource does: 401.
  app.post<{ Params: { backend: SsoBackend }; Body: Obj }>('/sso/login/:backend', {
    config: { public: true },
    schema: {
      params,
      body: { type: 'object', properties: { backend: { type: 'string', enum: known }, username: { type: 'string', maxLength: 100 }, password: { type: 'string', maxLength: 100 } } },
    },
  }, async (request) => {
    if (!backends.has(request.params.backend)) throw notFound();
    throw apiError(401, 'BAD_USERNAME_OR_PWD', 'Auth failed');
  });
}
