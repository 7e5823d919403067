// Input as strict as the broker's schema checker (hocon, through minirest): a body field the
// schema does not know is refused with 400 naming it (`unknown_fields`) and changes nothing; a
// JSON null counts as an omitted field, so its default applies; a known path with the wrong
// method answers 405 with an `allow` header. Generated over every write route that takes a JSON
// object body, on every profile.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { FastifyInstance } from 'fastify';
import { PROFILES } from '../../simulator/store/profile.ts';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

const FIELD = 'surely_unknown_field';

/** Write routes whose body is a JSON object (not an array, not an upload, not bodiless). */
function objectBodyRoutes(app: FastifyInstance) {
  return app.apiRoutes.filter((r) => {
    if (!['POST', 'PUT'].includes(r.method) || r.noBody || !r.url.startsWith('/api/v5/')) return false;
    const body = (r.schema as { body?: { type?: string }; consumes?: string[] } | undefined);
    if (body?.consumes?.includes('multipart/form-data')) return false;
    return body?.body !== undefined && (body.body.type === 'object' || body.body.type === undefined);
  });
}

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; enum?: unknown[]; default?: unknown; additionalProperties?: unknown; minimum?: number; anyOf?: Schema[]; oneOf?: Schema[] };

/** A small body the schema accepts, from its required properties: a default, the first enum value, or a plain value of the type. */
function sampleOf(schema: Schema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  const alternative = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (alternative) return sampleOf(alternative);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of schema.required ?? []) out[key] = sampleOf(schema.properties?.[key] ?? {});
    return out;
  }
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return true;
  return 'sample';
}

for (const { version, edition } of PROFILES) {
  test(`${version}-${edition}: every write route refuses one unknown body field with 400 naming it, changing nothing`, async () => {
    const app = await buildTestApp({ emqxVersion: version, edition, loginRateLimit: { max: 1_000_000 } });
    const token = await login(app);
    const lenient: string[] = [];
    for (const route of objectBodyRoutes(app)) {
      if (route.url === '/api/v5/logout') continue;
      const schema = (route.schema as { body: Schema }).body;
      const url = route.url.replace(/:(\w+)/g, 'x');
      const sample = sampleOf(schema) as Record<string, unknown>;
      const before = JSON.stringify(app.store.state);
      const res = await api(app, route.method as 'POST', url, { token, body: { ...sample, [FIELD]: 1 } });
      if (JSON.stringify(app.store.state) !== before) lenient.push(`${route.method} ${route.url} changed the state`);
      if (res.statusCode === 400 && res.body.includes(FIELD)) continue;
      // Refused for another reason (an unknown id in the path, a sample the handler does not
      // take): then the schema itself must forbid unknown fields, or the sample alone must be
      // refused the same way (the unknown field played no part).
      if (res.statusCode >= 400 && res.statusCode < 500) {
        if (schema.additionalProperties === false) continue;
        const plain = await api(app, route.method as 'POST', url, { token, body: sample });
        if (plain.statusCode === res.statusCode && plain.body === res.body) continue;
      }
      lenient.push(`${route.method} ${route.url} → ${res.statusCode} ${res.body.slice(0, 100)}`);
    }
    assert.equal(lenient, []);
    await app.close();
  });
}

test('PUT /authorization/settings with an unknown key is a 400 and stores nothing', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  const before = (await api(app, 'GET', '/api/v5/authorization/settings', { token })).json();
  const res = await api(app, 'PUT', '/api/v5/authorization/settings', { token, body: { ...before, no_match: 'deny', sneaky: true } });
  assert.is(res.statusCode, 400);
  assert.match(res.json().message, 'sneaky');
  assert.equal((await api(app, 'GET', '/api/v5/authorization/settings', { token })).json(), before);
  await app.close();
});

test('POST /banned with until: null takes the release default: a year on 5.5.1, infinity on 5.8.9', async () => {
  for (const [version, expect] of [['5.5.1', 'year'], ['5.8.9', 'infinity']] as const) {
    const app = await buildTestApp({ emqxVersion: version });
    const token = await login(app);
    const res = await api(app, 'POST', '/api/v5/banned', { token, body: { as: 'clientid', who: 'nulled', until: null } });
    assert.is(res.statusCode, 200, version);
    const { at, until } = res.json();
    if (expect === 'infinity') assert.is(until, 'infinity');
    else assert.is(Date.parse(until) - Date.parse(at), 365 * 24 * 3600 * 1000, version);
    // 5.5.1 has no "infinity" (emqx_mgmt_api_banned.erl: epoch_second only).
    const infinite = await api(app, 'POST', '/api/v5/banned', { token, body: { as: 'clientid', who: 'forever', until: 'infinity' } });
    assert.is(infinite.statusCode, version === '5.5.1' ? 400 : 200, version);
    await app.close();
  }
});

test('a known path with the wrong method is a 405 with an empty body and the allowed methods', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  const res = await api(app, 'DELETE', '/api/v5/users', { token });
  assert.is(res.statusCode, 405);
  assert.is(res.body, '');
  assert.equal(String(res.headers.allow).split(', ').sort(), ['GET', 'POST']);
  // A path no method has stays a 404.
  assert.is((await api(app, 'GET', '/api/v5/no_such_path', { token })).statusCode, 404);
  await app.close();
});

test('a literal path minirest finds before a parametrised one answers 405 for the methods only the other has', async () => {
  // emqx_dashboard_swagger:spec/2 reverses each module's paths(), cowboy takes the first path that
  // matches and minirest_handler.erl then checks the method: `/plugins/install` (after
  // `/plugins/:name`) answers GET with 405, not as the plugin "install". Before credentials.
  const cases: [string, 'GET' | 'PUT' | 'POST' | 'DELETE', string, string][] = [
    ['5.5.1', 'GET', '/plugins/install', 'POST'],
    ['5.5.1', 'DELETE', '/plugins/install', 'POST'],
    ['5.5.1', 'POST', '/actions/http:x/metrics', 'GET'],
    ['5.5.1', 'POST', '/sources/mqtt:x/metrics', 'GET'],
    ['5.5.1', 'DELETE', '/sso/running', 'GET'],
    ['5.8.9', 'GET', '/authentication/order', 'PUT'],
    ['5.8.9', 'DELETE', '/authentication/order', 'PUT'],
    ['5.8.9', 'GET', '/authorization/sources/order', 'PUT'],
    ['5.8.9', 'PUT', '/sso/running', 'GET'],
  ];
  for (const version of ['5.5.1', '5.8.9'] as const) {
    const app = await buildTestApp({ emqxVersion: version, seed: 'empty' });
    const token = await login(app);
    for (const [v, method, path, allow] of cases) {
      if (v !== version && v !== '5.5.1') continue;
      for (const auth of [{ token }, {}]) {
        const res = await api(app, method, `/api/v5${path}`, auth);
        assert.equal([res.statusCode, res.body, res.headers.allow], [405, '', allow], `${version} ${method} ${path}`);
      }
    }
    // The parametrised paths still answer their own: an authenticator called "order" on 5.5.1,
    // which has no /authentication/order.
    const order = await api(app, 'GET', '/api/v5/authentication/order', { token });
    assert.is(order.statusCode, version === '5.5.1' ? 404 : 405, version);
    assert.is((await api(app, 'GET', '/api/v5/plugins/other', { token })).statusCode, 404);
    await app.close();
  }
});

test.run();
