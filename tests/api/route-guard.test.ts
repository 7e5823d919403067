// Security.md S7: every protected route answers 401 without credentials. The route table is
// walked, so a route added later cannot forget the guard.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildTestApp } from '../helpers/simulator.ts';

test('the route table lists the API routes and marks only login, status, the form schemas and the error codes public', async () => {
  const app = await buildTestApp();
  await app.ready();
  const publicApi = app.apiRoutes
    .filter((r) => r.public && r.url.startsWith('/api/v5') && r.method !== 'HEAD')
    .map((r) => `${r.method} ${r.url}`)
    .sort();
  // /schemas/{name} is unauthenticated on the broker too (emqx-api-part2.md §4.10).
  // The Prometheus scrape endpoints are public unless `enable_basic_auth` (checked in their
  // handlers; emqx_prometheus_api.erl at e5.8.9 gives the 5.8 schema validation and message
  // transformation scrapes the same `security()`); the SSO login and the list of running SSO backends are public on Enterprise
  // (emqx_dashboard_sso_api.erl `security => []`), as is the error code catalog
  // (emqx_dashboard_error_code_api.erl).
  assert.equal(publicApi, [
    'GET /api/v5/error_codes', 'GET /api/v5/error_codes/:code', 'GET /api/v5/prometheus/auth', 'GET /api/v5/prometheus/data_integration',
    'GET /api/v5/prometheus/message_transformation', 'GET /api/v5/prometheus/schema_validation', 'GET /api/v5/prometheus/stats', 'GET /api/v5/schemas/:name',
    'GET /api/v5/sso/running', 'GET /api/v5/status', 'POST /api/v5/login', 'POST /api/v5/sso/login/:backend',
  ]);
  assert.ok(app.apiRoutes.some((r) => r.url === '/api/v5/users' && r.method === 'POST' && !r.public));
  await app.close();
});

test('every non-public route answers 401 without credentials', async () => {
  const app = await buildTestApp();
  await app.ready();
  const guarded = app.apiRoutes.filter((r) => !r.public);
  assert.ok(guarded.length >= 18, `only ${guarded.length} guarded routes`);
  for (const route of guarded) {
    const url = route.url.replace(/:(\w+)/g, 'x');
    const res = await app.inject({ method: route.method as 'GET', url, payload: route.method === 'GET' || route.method === 'HEAD' ? undefined : {} });
    assert.is(res.statusCode, 401, `${route.method} ${route.url}`);
    if (route.method !== 'HEAD') assert.is(res.json().code, 'AUTHORIZATION_HEADER_ERROR', `${route.method} ${route.url}`);
  }
  await app.close();
});

test('every non-public route answers 401 to a forged token', async () => {
  const app = await buildTestApp();
  await app.ready();
  for (const route of app.apiRoutes.filter((r) => !r.public && r.method !== 'HEAD')) {
    const url = route.url.replace(/:(\w+)/g, 'x');
    const res = await app.inject({ method: route.method as 'GET', url, headers: { authorization: 'Bearer forged' } });
    assert.is(res.statusCode, 401, `${route.method} ${route.url}`);
    assert.is(res.json().code, 'BAD_TOKEN');
  }
  await app.close();
});

test.run();
