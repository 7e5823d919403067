// GET /schemas/{name} (emqx-api-part2.md §4.10): the dashboard-flavour documents generated from
// the config-schema reference, served without authentication, with the broker's component keys.
import type { FastifyInstance } from 'fastify';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp } from '../helpers/simulator.ts';

let app: FastifyInstance;

test.before(async () => {
  app = await buildTestApp();
});

test.after(async () => {
  await app.close();
});

async function schema(name: string) {
  const res = await api(app, 'GET', `/api/v5/schemas/${name}`);
  assert.is(res.statusCode, 200, name);
  return res.json() as { info: { title: string; version: string }; paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } };
}

test('every schema document answers without a token, with info, paths and components', async () => {
  const titles: Record<string, string> = {
    hotconf: 'Hot Conf Schema', connectors: 'Connectors Schema',
    actions: 'Actions and Sources Schema', bridges: 'Data Bridge Schema',
  };
  for (const [name, title] of Object.entries(titles)) {
    const doc = await schema(name);
    assert.equal(doc.info, { title, version: '0.2.0' });
    assert.ok(Object.keys(doc.paths).length > 0, name);
    for (const value of Object.values(doc.components.schemas)) assert.is(value.type, 'object');
  }
  assert.is((await api(app, 'GET', '/api/v5/schemas/nope')).statusCode, 400);
});

test('hotconf encodes mqtt fields in the dashboard flavour', async () => {
  const doc = await schema('hotconf');
  const mqtt = doc.components.schemas['broker.mqtt'].properties;
  assert.equal(mqtt.max_packet_size, { type: 'byteSize', default: '1MB' });
  assert.equal(mqtt.max_clientid_len, { type: 'integer', minimum: 23, maximum: 65535, default: 65535 });
  assert.equal(mqtt.idle_timeout, { oneOf: [{ type: 'enum', symbols: ['infinity'] }, { type: 'duration' }], default: '15s' });
  assert.equal(mqtt.retain_available, { type: 'boolean', default: true });
  assert.equal(mqtt.shared_subscription_strategy.symbols,
    ['random', 'round_robin', 'round_robin_per_group', 'sticky', 'local', 'hash_topic', 'hash_clientid']);
  assert.equal(doc.paths['/configs/global_zone'].get.properties.mqtt, { $ref: '#/components/schemas/broker.mqtt' });
  assert.equal(doc.paths['/configs/sys_topics'].get, { $ref: '#/components/schemas/broker.sys_topics' });
  assert.equal(doc.components.schemas['broker.sys_topics'].properties.sys_event_messages, { $ref: '#/components/schemas/broker.event_names' });
  const log = doc.components.schemas['emqx.log'].properties;
  assert.equal(log.file.oneOf[1], { type: 'object', properties: { $handler_name: { $ref: '#/components/schemas/emqx.log_file_handler' } } });
  assert.equal(doc.components.schemas['retainer.mnesia_config'].properties.type, { type: 'enum', symbols: ['built_in_database'], default: 'built_in_database' });
});

test('connector, action and source components use the dashboard keys', async () => {
  const connectors = (await schema('connectors')).components.schemas;
  for (const key of ['bridge_http.post_connector', 'connector_mqtt.post_connector', 'bridge_kafka.post_connector',
    'connector_postgres.post_connector', 'redis.post_connector', 'elasticsearch.post', 'bridge_mysql.get_connector']) {
    assert.ok(connectors[key], key);
  }
  const http = connectors['bridge_http.post_connector'];
  assert.equal(http.properties.type, { type: 'enum', symbols: ['http'] });
  assert.equal(http.required, ['type', 'name']);
  assert.equal(http.properties.connect_timeout?.type, 'duration');
  const actions = await schema('actions');
  for (const key of ['bridge_http.post_bridge_v2', 'bridge_mqtt_publisher.post_bridge_v2', 'bridge_kafka.post_bridge_v2',
    'bridge_mysql.post_bridge_v2', 'bridge_mqtt_publisher.post_source']) {
    assert.ok(actions.components.schemas[key], key);
  }
  assert.ok(actions.paths['/actions'].get.items.oneOf.some((r: any) => r.$ref === '#/components/schemas/bridge_http.get_bridge_v2'));
  assert.ok((await schema('bridges')).components.schemas['bridge_webhook.post']);
});

test('connector fields the source marks deprecated are left out, as the broker hides them', async () => {
  // emqx_bridge_http_connector.erl retry_interval, emqx_bridge_http_schema.erl `request`,
  // emqx_bridge_mqtt_connector_schema.erl mode and reconnect_interval (v5.5.1, e5.8.9).
  const connectors = (await schema('connectors')).components.schemas;
  for (const method of ['get', 'post', 'put']) {
    const http = Object.keys(connectors[`bridge_http.${method}_connector`].properties);
    const mqtt = Object.keys(connectors[`connector_mqtt.${method}_connector`].properties);
    assert.equal(http.filter((k) => ['retry_interval', 'request'].includes(k)), [], method);
    assert.equal(mqtt.filter((k) => ['mode', 'reconnect_interval'].includes(k)), [], method);
    assert.ok(http.includes('pool_size') && mqtt.includes('retry_interval'), 'the fields beside them stay');
  }
});

test('a secret is a password-format string and maps keep their key name', async () => {
  const connectors = (await schema('connectors')).components.schemas;
  assert.equal(connectors['bridge_mysql.post_connector'].properties.password, { type: 'string', format: 'password' });
  assert.equal(connectors['bridge_http.post_connector'].properties.headers.type, 'object');
});

test.run();
