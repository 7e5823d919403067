// Every write route refuses a body field its release's schema lacks with 400 BAD_REQUEST naming it
// (issue #31, acceptance 3; hocon_tconf.erl check_unknown_fields/3 through
// emqx_dashboard_swagger.erl check_request_body/5), on every profile in this one process. The
// route table (`app.apiRoutes`) is walked: each POST or PUT route is sent a body it takes, once
// with one unknown field (refused, nothing changed) and once without (taken, so the refusal was the
// field's); a route whose body schema forbids other properties is refused by the request
// validator itself; every other route is named below with why. A route added later is in none of
// these and fails the test until it is placed.
import type { FastifyInstance } from 'fastify';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROFILES, routeKey } from '../../simulator/store/profile.ts';
import { buildMultipart } from '../helpers/multipart.ts';
import { OPERATOR_OBJECTS } from '../helpers/operator-objects.ts';
import { pluginPackage } from '../helpers/plugin-package.ts';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

const FIELD = 'surely_not_a_field';

type Body = Record<string, unknown>;
interface Valid {
  /** The route, as `METHOD /path/{param}` without /api/v5. */
  route: string;
  /** The path, or how to find it (a client or node the simulator names). */
  url: string | ((app: FastifyInstance, token: string) => Promise<string>);
  /**
   * A body the route takes; the unknown field goes at `into` (a zone root), into the first item of
   * an array body, or at the top.
   */
  body: (app: FastifyInstance, token: string) => Promise<Body | Body[]> | Body | Body[];
  into?: string;
  /**
   * The status the body without the field gets where the route cannot succeed here (an SSO login
   * with no provider running): past the body check, so the refusal was the field's.
   */
  takes?: number;
  /**
   * false where hocon's message cannot name the field: emqx_prometheus_schema.erl's union selector
   * takes the legacy member for a body with a key the recommended one lacks, and then the unknown
   * list is every recommended key, cut to two names (fmt_field_names/1).
   */
  named?: false;
}

const get = async (app: FastifyInstance, token: string, url: string): Promise<any> => (await api(app, 'GET', `/api/v5${url}`, { token })).json();

/** The config roots, sent back as GET answers them. */
const CONFIG_PUTS = ['/configs/sys_topics', '/configs/log', '/configs/dashboard', '/configs/alarm', '/configs/sysmon', '/configs/limiter', '/configs/broker',
  '/configs/file_transfer', '/file_transfer', '/mqtt/retainer', '/prometheus', '/opentelemetry', '/rule_engine'];

const RULES = '/authorization/sources/built_in_database/rules';
const AVRO = { type: 'avro', source: JSON.stringify({ type: 'record', name: 'P', fields: [] }) };
const GW_AUTHN = { mechanism: 'password_based', backend: 'built_in_database', user_id_type: 'clientid' };
const LDAP = { backend: 'ldap', enable: false, server: '127.0.0.1:389', username: 'cn=admin', password: 'ldap-secret', base_dn: 'dc=example' };
const RULE = { topic: 't/1', permission: 'allow', action: 'publish' };

const VALID: Valid[] = [
  ...CONFIG_PUTS.map((url): Valid => ({ route: `PUT ${url}`, url, body: (app, token) => get(app, token, url), ...(url === '/prometheus' ? { named: false as const } : {}) })),
  // emqx_mgmt_api_configs.erl global_zone_schema/0: each zone root checked under its own name.
  { route: 'PUT /configs/global_zone', url: '/configs/global_zone', body: () => ({ mqtt: { max_inflight: 32 } }), into: 'mqtt' },
  { route: 'POST /listeners', url: '/listeners', body: () => ({ type: 'tcp', name: 'probe', bind: '127.0.0.1:0', enable: false }) },
  { route: 'PUT /listeners/{}', url: '/listeners/tcp:default', body: () => ({ id: 'tcp:default', type: 'tcp', max_connections: 'infinity' }) },
  { route: 'POST /connectors', url: '/connectors', body: () => ({ type: 'http', name: 'probe', url: 'http://127.0.0.1:9/in' }) },
  { route: 'PUT /connectors/{}', url: '/connectors/http:web', body: () => ({ url: 'http://127.0.0.1:9/in' }) },
  { route: 'POST /actions', url: '/actions', body: () => ({ type: 'http', name: 'probe', connector: 'web', parameters: { path: '/p' } }) },
  { route: 'PUT /actions/{}', url: '/actions/http:out', body: () => ({ connector: 'web', parameters: { path: '/x' } }) },
  { route: 'POST /sources', url: '/sources', body: () => ({ type: 'mqtt', name: 'probe', connector: 'mq', parameters: { topic: 't/#' } }) },
  { route: 'PUT /sources/{}', url: '/sources/mqtt:probe', body: () => ({ connector: 'mq', parameters: { topic: 't/#' } }) },
  { route: 'POST /rules', url: '/rules', body: () => ({ id: 'probe', sql: 'SELECT * FROM "p/#"' }) },
  { route: 'PUT /rules/{}', url: '/rules/r1', body: () => ({ sql: 'SELECT * FROM "t/#"' }) },
  { route: 'POST /exhooks', url: '/exhooks', body: () => ({ name: 'probe', url: 'http://127.0.0.1:9', enable: false }) },
  { route: 'PUT /exhooks/{}', url: '/exhooks/hook1', body: () => ({ url: 'http://127.0.0.1:9', enable: false }) },
  { route: 'POST /banned', url: '/banned', body: () => ({ as: 'clientid', who: 'probe' }) },
  { route: 'POST /authentication', url: '/authentication', body: () => ({ mechanism: 'jwt', use_jwks: false, algorithm: 'hmac-based', secret: 'probe' }) },
  { route: 'PUT /authentication/{}', url: '/authentication/password_based:built_in_database', body: () => ({ mechanism: 'password_based', backend: 'built_in_database', user_id_type: 'clientid' }) },
  { route: 'POST /authorization/sources', url: '/authorization/sources', body: () => ({ type: 'built_in_database', enable: true }) },
  { route: 'PUT /authorization/sources/{}', url: '/authorization/sources/file', body: () => ({ type: 'file', enable: true, rules: '{allow, all}.' }) },
  { route: 'PUT /authorization/settings', url: '/authorization/settings', body: (app, token) => get(app, token, '/authorization/settings') },
  { route: 'PUT /gateways/{}', url: '/gateways/mqttsn', body: () => ({ gateway_id: 8 }) },
  { route: 'POST /gateways/{}/clients/{}/subscriptions', url: async (app, token) => `/gateways/mqttsn/clients/${(await get(app, token, '/gateways/mqttsn/clients')).data[0].clientid}/subscriptions`,
    body: () => ({ topic: 'probe/#', qos: 1 }) },
  { route: 'POST /gateways/{}/listeners', url: '/gateways/mqttsn/listeners', body: () => ({ type: 'udp', name: 'probe', bind: '127.0.0.1:0', enable: false }) },
  { route: 'PUT /gateways/{}/listeners/{}', url: '/gateways/mqttsn/listeners/mqttsn:udp:probe', body: () => ({ type: 'udp', name: 'probe', bind: '127.0.0.1:0', enable: false, max_connections: 64 }) },
  { route: 'POST /gateways/{}/authentication', url: '/gateways/mqttsn/authentication', body: () => GW_AUTHN },
  { route: 'PUT /gateways/{}/authentication', url: '/gateways/mqttsn/authentication', body: () => ({ ...GW_AUTHN, user_id_type: 'username' }) },
  { route: 'POST /gateways/{}/listeners/{}/authentication', url: '/gateways/mqttsn/listeners/mqttsn:udp:probe/authentication', body: () => GW_AUTHN },
  { route: 'PUT /gateways/{}/listeners/{}/authentication', url: '/gateways/mqttsn/listeners/mqttsn:udp:probe/authentication', body: () => ({ ...GW_AUTHN, user_id_type: 'username' }) },
  { route: 'POST /listeners/{}', url: '/listeners/tcp:default', body: () => ({ id: 'tcp:default', type: 'tcp', max_connections: 'infinity' }) },
  { route: 'PUT /sso/{}', url: '/sso/ldap', body: () => LDAP },
  // emqx_dashboard_sso_ldap.erl login/2 against a server that does not answer: 401.
  { route: 'POST /sso/login/{}', url: '/sso/login/ldap', body: () => ({ backend: 'ldap', username: 'u', password: 'p' }), takes: 401 },
  { route: 'POST /exhooks/{}/move', url: '/exhooks/hook1/move', body: () => ({ position: 'front' }) },
  { route: 'POST /plugins/{}/move', url: '/plugins/probe-1.0.0/move', body: async (app, token) => {
    const { body, contentType } = buildMultipart({ plugin: { filename: 'probe-1.0.0.tar.gz', data: await pluginPackage({ name: 'probe' }), contentType: 'application/x-gzip' } });
    const installed = await app.inject({ method: 'POST', url: '/api/v5/plugins/install', payload: body, headers: { authorization: `Bearer ${token}`, 'content-type': contentType } });
    assert.ok(installed.statusCode < 300, installed.body);
    return { position: 'front' };
  } },
  { route: 'PUT /authentication/order', url: '/authentication/order', body: async (app, token) => (await get(app, token, '/authentication') as unknown as Body[]).map((a) => ({ id: a.id })) },
  { route: 'POST /authentication/{}/users', url: '/authentication/password_based:built_in_database/users', body: () => ({ user_id: 'probe', password: 'Passw0rd-1', is_superuser: false }) },
  { route: 'PUT /authentication/{}/users/{}', url: '/authentication/password_based:built_in_database/users/probe', body: () => ({ password: 'Passw0rd-2' }) },
  { route: 'PUT /authorization/sources/order', url: '/authorization/sources/order', body: async (app, token) => (await get(app, token, '/authorization/sources')).sources.map((s: Body) => ({ type: s.type })) },
  { route: 'POST /authorization/sources/{}/move', url: '/authorization/sources/file/move', body: () => ({ position: 'front' }) },
  { route: `POST ${RULES}/users`, url: `${RULES}/users`, body: () => [{ username: 'probe', rules: [RULE] }] },
  { route: `PUT ${RULES}/users/{}`, url: `${RULES}/users/probe`, body: () => ({ username: 'probe', rules: [RULE] }) },
  { route: `POST ${RULES}/clients`, url: `${RULES}/clients`, body: () => [{ clientid: 'probe', rules: [RULE] }] },
  { route: `PUT ${RULES}/clients/{}`, url: `${RULES}/clients/probe`, body: () => ({ clientid: 'probe', rules: [RULE] }) },
  { route: `POST ${RULES}/all`, url: `${RULES}/all`, body: () => ({ rules: [RULE] }) },
  // A node of the simulated cluster, out of it first so that the invite is taken.
  { route: 'PUT /cluster/{}/invite', url: async (app, token) => {
    const node = (await get(app, token, '/nodes') as unknown as Body[])[1].node as string;
    assert.is((await api(app, 'DELETE', `/api/v5/cluster/${node}/force_leave`, { token })).statusCode, 204);
    return `/cluster/${node}/invite`;
  }, body: () => ({ timeout: 5000 }) },
  { route: 'POST /rule_test', url: '/rule_test', body: () => ({ sql: 'SELECT * FROM "t/#"', context: { event_type: 'message_publish', topic: 't/1', payload: 'x' } }) },
  { route: 'POST /license', url: '/license', body: () => ({ key: 'default' }) },
  // The v1 bridge probe: past the body check the target (the discard port) is not there.
  { route: 'POST /bridges_probe', url: '/bridges_probe', body: () => ({ type: 'webhook', name: 'probe', url: 'http://127.0.0.1:9/in', method: 'post' }), takes: 400 },
  { route: 'POST /schema_registry', url: '/schema_registry', body: () => ({ name: 'probe', ...AVRO }) },
  { route: 'PUT /schema_registry/{}', url: '/schema_registry/probe', body: () => AVRO },
  { route: 'PUT /schema_registry_external/registry/{}', url: '/schema_registry_external/registry/probe', body: async (app, token) => {
    const made = await api(app, 'POST', '/api/v5/schema_registry_external', { token, body: { name: 'probe', type: 'confluent', url: 'http://127.0.0.1:9' } });
    assert.ok(made.statusCode < 300, made.body);
    return { type: 'confluent', url: 'http://127.0.0.1:9', auth: 'none' };
  } },
];

const UPLOAD = 'a multipart upload (a file), not a JSON body';

/** Write routes this test does not send a body to, each with why. */
const NOT_SENT: Record<string, string> = {
  'POST /plugins/install': UPLOAD,
  'POST /data/files': UPLOAD,
  'POST /relup/package/upload': UPLOAD,
  'POST /authentication/{}/import_users': UPLOAD,
  'POST /gateways/{}/authentication/import_users': UPLOAD,
  'POST /gateways/{}/listeners/{}/authentication/import_users': UPLOAD,
  'PUT /configs': 'a HOCON text body (emqx_mgmt_api_configs.erl configs(put)), checked per root by tests/api/configs-hocon.test.ts',
  'POST /clients/kickout/bulk': 'an array of client ids (strings): no field to add',
  // The probes run the same check as the create route above, then need a reachable target.
  'POST /connectors_probe': 'the check of POST /connectors, then a reachable target',
  'POST /actions_probe': 'the check of POST /actions, then a reachable target',
  'POST /sources_probe': 'the check of POST /sources, then a reachable target',
  // emqx_license_http_api.erl schema("/license/setting") (e5.5.1 to 6.2.2): 'requestBody' =>
  // setting(), a bare field list, which emqx_dashboard_swagger.erl check_request_body/5 checks
  // field by field (each as its own root), so the broker takes any other field.
  'PUT /license/setting': 'a bare field list (emqx_license_http_api.erl setting/0): the broker takes other fields',
  // emqx_coap_api.erl schema(?PREFIX ++ "/request") (v5.5.1 to 6.2.2): requestBody => request_body(),
  // a bare field list, checked field by field as above.
  'POST /gateways/coap/clients/{}/request': 'a bare field list (emqx_coap_api.erl request_body/0): the broker takes other fields',
  'PUT /plugins/{}/config': 'the plugin\'s own Avro schema decides (emqx_plugins.erl), not hocon',
};

for (const { version, edition } of PROFILES) {
  const id = `${version}-${edition}`;
  test(`${id}: every write route refuses an unknown body field with 400 BAD_REQUEST`, async () => {
    const app = await buildTestApp({ emqxVersion: version, edition, loginRateLimit: { max: 1_000_000 } });
    // Closed whatever the outcome, so that a failure ends the run instead of holding it open.
    try {
      const token = await login(app);
      for (const [method, url, body] of OPERATOR_OBJECTS) assert.ok((await api(app, method, `/api/v5${url}`, { token, body })).statusCode < 300, url);
      const mq = await api(app, 'POST', '/api/v5/connectors', { token, body: { type: 'mqtt', name: 'mq', server: '127.0.0.1:9' } });
      assert.ok(mq.statusCode < 300, mq.body);

      const valid = new Map(VALID.map((v) => [v.route, v]));
      const unplaced: string[] = [];
      const unavailable = new Set(app.unavailableRoutes);
      for (const route of app.apiRoutes) {
        if (!['POST', 'PUT'].includes(route.method) || !route.url.startsWith('/api/v5/')) continue;
        const key = routeKey(route.method, route.url);
        if (unavailable.has(`${route.method} ${route.url.slice('/api/v5'.length)}`)) continue;
        type Closed = { additionalProperties?: unknown; items?: { additionalProperties?: unknown } };
        const schema = (route.schema as { body?: Closed } | undefined)?.body;
        // A route that takes no body (an operation such as /trace/{name}/stop) has no field to refuse.
        if (valid.has(key) || route.noBody) continue;
        if (schema?.additionalProperties === false || schema?.items?.additionalProperties === false || NOT_SENT[key]) continue;
        unplaced.push(key);
      }
      assert.equal(unplaced, [], `${id}: write routes neither sent a body here, nor closed by their schema, nor named in NOT_SENT`);

      for (const v of VALID) {
        const served = app.apiRoutes.some((r) => routeKey(r.method, r.url) === v.route && !unavailable.has(`${r.method} ${r.url.slice('/api/v5'.length)}`));
        if (!served) continue;
        const url = typeof v.url === 'string' ? v.url : await v.url(app, token);
        const body = await v.body(app, token);
        const bad = Array.isArray(body) ? [{ ...body[0], [FIELD]: 1 }, ...body.slice(1)]
          : v.into ? { ...body, [v.into]: { ...(body[v.into] as Body), [FIELD]: 1 } } : { ...body, [FIELD]: 1 };
        const before = JSON.stringify(app.store.state);
        const [method] = v.route.split(' ') as ['POST' | 'PUT'];
        const refused = await api(app, method, `/api/v5${url}`, { token, body: bad });
        const label = `${id} ${v.route}: ${refused.body.slice(0, 300)}`;
        assert.is(refused.statusCode, 400, label);
        assert.is(refused.json().code, 'BAD_REQUEST', label);
        if (v.named !== false) assert.match(refused.json().message, FIELD, label);
        assert.match(refused.json().message, 'unknown_fields', label);
        assert.is(JSON.stringify(app.store.state), before, `${label}: nothing changes`);
        const taken = await api(app, method, `/api/v5${url}`, { token, body });
        const takenLabel = `${id} ${v.route} without the field: ${taken.statusCode} ${taken.body.slice(0, 300)}`;
        if (v.takes === undefined) assert.ok(taken.statusCode < 300, takenLabel);
        else assert.is(taken.statusCode, v.takes, takenLabel);
      }
    } finally {
      await app.close();
    }
  });
}

test.run();
