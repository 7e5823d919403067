// EMQX module emqx_dashboard_sso_api (Enterprise): /sso, /sso/running, /sso/{backend}, /sso/login/{backend}.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { refuseUnknownFields, rootField } from '../store/config/schema-check.ts';
import type { TreeField } from '../store/config/release-tree.ts';
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

  // emqx_dashboard_sso_api.erl backend_union/0 (e5.5.1 to 6.2.2): PUT takes the struct of the
  // path's backend, dashboard.sso.<backend> of the release's config tree; login_union/0 takes each
  // backend's fields(login): `backend`, with `username` and `password` for ldap
  // (emqx_dashboard_sso_ldap.erl, emqx_dashboard_sso_saml.erl, emqx_dashboard_sso_oidc.erl).
  const backendFields = (backend: SsoBackend) => rootField(store.profile.version, 'dashboard', 'sso')?.refs?.[0]?.fields.find((f) => f.text === backend)?.refs?.[0]?.fields;
  const field = (text: string): TreeField => ({ text, type: 'String' }) as TreeField;
  const loginFields = (backend: SsoBackend) => (backend === 'ldap' ? ['backend', 'username', 'password'] : ['backend']).map(field);

  app.get('/sso', async () => backends.list());

  app.get('/sso/running', { config: { public: true } }, async () => backends.running());

  app.get<{ Params: { backend: SsoBackend } }>('/sso/:backend', { schema: { params } }, async (request) => backends.get(request.params.backend));

  app.put<{ Params: { backend: SsoBackend }; Body: Obj }>('/sso/:backend', { schema: { params, body } }, async (request) => {
    const fields = backendFields(request.params.backend);
    if (fields) refuseUnknownFields(fields, request.body, ['enable']);
    return backends.put(request.params.backend, request.body);
  });

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
    refuseUnknownFields(loginFields(request.params.backend), request.body);
    if (!backends.has(request.params.backend)) throw notFound();
    throw apiError(401, 'BAD_USERNAME_OR_PWD', 'Auth failed');
  });
}
