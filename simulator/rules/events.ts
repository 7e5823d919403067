// The rule events (emqx_rule_events): each `$events/...` topic with its title, description,
// columns, example values and SQL example, served by GET /rule_events and used to fill the
// context of POST /rule_test. The live hooks build the same columns from real clients.

/** Where an event exists: the broker application and first release (as store/profile.ts reads it). */
export interface Availability {
  app?: string;
  since?: string;
}

export interface RuleEvent {
  event: string;
  title: { en: string; zh: string };
  description: { en: string; zh: string };
  columns: string[];
  test_columns: Record<string, [unknown, string]>;
  sql_example: string;
}

interface EventDef {
  /** Where the event exists, when not everywhere (store/profile.ts). */
  availability?: Availability;
  /** Suffix after `$events/` (or the `$bridges/mqtt:*` pseudo event). */
  name: string;
  /** Value of the `event` column, e.g. `client.connected`. */
  eventColumn: string;
  title: [string, string];
  description: [string, string];
  /** Example value of every column, in column order. */
  example: Record<string, unknown>;
  /** Columns the SQL test panel lets the user edit. */
  test: Record<string, string>;
  sql: string;
}

const EXAMPLE_TS = 1_700_000_000_000;
const COMMON = { timestamp: EXAMPLE_TS, node: 'emqx@127.0.0.1' };
const PUBLISH = {
  id: '0005F8F84FFFAFB9F44200000D810002',
  clientid: 'c_emqx',
  username: 'u_emqx',
  payload: '{"msg": "hello"}',
  peerhost: '192.168.0.10',
  peername: '192.168.0.10:56431',
  topic: 't/a',
  qos: 1,
  flags: { retain: false, dup: false },
  publish_received_at: EXAMPLE_TS,
  pub_props: { 'User-Property': {} },
};
const PUBLISH_TEST = { clientid: 'The clientid of the message', username: 'The username of the message', topic: 'The topic of the message', qos: 'The QoS of the message', payload: 'The payload of the message' };
const FROM_TEST = { from_clientid: 'The clientid of the publisher', from_username: 'The username of the publisher' };
const CONN = {
  clientid: 'c_emqx', username: 'u_emqx', mountpoint: 'undefined', peername: '192.168.0.10:56431', sockname: '0.0.0.0:1883',
  proto_name: 'MQTT', proto_ver: 5, keepalive: 60, clean_start: true, expiry_interval: 3600, is_bridge: false,
  conn_props: { 'User-Property': {} },
};

const DEFS: EventDef[] = [
  {
    name: 'message_publish', eventColumn: 'message.publish',
    title: ['Message publish', '消息发布'], description: ['Messages received by the broker', '消息发布'],
    example: { event: 'message.publish', ...PUBLISH, ...COMMON, client_attrs: {} },
    test: PUBLISH_TEST, sql: `SELECT payload.msg as msg FROM "t/#" WHERE msg = 'hello'`,
  },
  {
    name: 'message_delivered', eventColumn: 'message.delivered',
    title: ['Message delivered', '消息投递'], description: ['Message delivered to a subscriber', '消息投递'],
    example: { event: 'message.delivered', ...PUBLISH, from_clientid: 'c_emqx_1', from_username: 'u_emqx_1', clientid: 'c_emqx_2', username: 'u_emqx_2', ...COMMON, client_attrs: {} },
    test: { ...FROM_TEST, ...PUBLISH_TEST }, sql: `SELECT * FROM "$events/message_delivered" WHERE topic =~ 't/#'`,
  },
  {
    name: 'message_acked', eventColumn: 'message.acked',
    title: ['Message acked', '消息确认'], description: ['Message ACK', '消息确认'],
    example: { event: 'message.acked', ...PUBLISH, from_clientid: 'c_emqx_1', from_username: 'u_emqx_1', clientid: 'c_emqx_2', username: 'u_emqx_2', puback_props: { 'User-Property': {} }, ...COMMON, client_attrs: {} },
    test: { ...FROM_TEST, ...PUBLISH_TEST }, sql: `SELECT * FROM "$events/message_acked" WHERE topic =~ 't/#'`,
  },
  {
    name: 'message_dropped', eventColumn: 'message.dropped',
    title: ['Message dropped', '消息丢弃'], description: ['Messages are discarded during forwarding, usually because there are no subscribers', '消息在转发的过程中被丢弃，一般是由于没有订阅者'],
    example: { event: 'message.dropped', ...PUBLISH, reason: 'no_subscribers', ...COMMON, client_attrs: {} },
    test: { reason: 'The reason for dropping', ...PUBLISH_TEST }, sql: `SELECT * FROM "$events/message_dropped" WHERE topic =~ 't/#'`,
  },
  {
    name: 'delivery_dropped', eventColumn: 'delivery.dropped',
    title: ['Delivery dropped', '消息投递丢弃'], description: ['Messages are discarded during delivery, i.e. because the message queue is full', '订阅者的消息队列已满等原因导致投递时消息被丢弃'],
    example: { event: 'delivery.dropped', ...PUBLISH, reason: 'queue_full', from_clientid: 'c_emqx_1', from_username: 'u_emqx_1', clientid: 'c_emqx_2', username: 'u_emqx_2', ...COMMON, client_attrs: {} },
    test: { reason: 'The reason for dropping', ...FROM_TEST, ...PUBLISH_TEST }, sql: `SELECT * FROM "$events/delivery_dropped" WHERE topic =~ 't/#'`,
  },
  {
    name: 'client_connected', eventColumn: 'client.connected',
    title: ['Client connected', '连接建立'], description: ['Client connected', '连接建立'],
    example: { event: 'client.connected', ...CONN, connected_at: EXAMPLE_TS, ...COMMON, client_attrs: {} },
    test: { clientid: 'The clientid of the client', username: 'The username of the client', peername: 'The IP address and port of the client' },
    sql: 'SELECT * FROM "$events/client_connected"',
  },
  {
    name: 'client_disconnected', eventColumn: 'client.disconnected',
    title: ['Client disconnected', '连接断开'], description: ['Client disconnected', '连接断开'],
    example: {
      event: 'client.disconnected', reason: 'normal', clientid: 'c_emqx', username: 'u_emqx', peername: '192.168.0.10:56431', sockname: '0.0.0.0:1883',
      disconnected_at: EXAMPLE_TS, disconn_props: { 'User-Property': {} }, proto_name: 'MQTT', proto_ver: 5, ...COMMON, client_attrs: {},
    },
    test: { clientid: 'The clientid of the client', username: 'The username of the client', reason: 'The reason for the disconnection' },
    sql: 'SELECT * FROM "$events/client_disconnected"',
  },
  {
    name: 'client_connack', eventColumn: 'client.connack',
    title: ['Client connack', '连接确认'], description: ['Client connect acknowledged', '连接确认'],
    example: { event: 'client.connack', reason_code: 'success', ...CONN, connected_at: EXAMPLE_TS, ...COMMON },
    test: { clientid: 'The clientid of the client', username: 'The username of the client', reason_code: 'The reason code of the CONNACK' },
    sql: 'SELECT * FROM "$events/client_connack"',
  },
  {
    name: 'client_check_authz_complete', eventColumn: 'client.check_authz_complete',
    title: ['Authorization check complete', '授权结果'], description: ['Authorization check complete', '授权结果'],
    example: {
      event: 'client.check_authz_complete', clientid: 'c_emqx', username: 'u_emqx', peerhost: '192.168.0.10', topic: 't/a',
      action: 'publish', authz_source: 'cache', result: 'allow', ...COMMON, client_attrs: {},
    },
    test: { clientid: 'The clientid of the client', username: 'The username of the client', topic: 'The topic to check', action: 'publish or subscribe', result: 'allow or deny' },
    sql: 'SELECT * FROM "$events/client_check_authz_complete"',
  },
  {
    name: 'client_check_authn_complete', eventColumn: 'client.check_authn_complete',
    title: ['Authentication complete', '认证结果'], description: ['Authentication complete', '认证结果'],
    example: {
      event: 'client.check_authn_complete', clientid: 'c_emqx', username: 'u_emqx', peername: '192.168.0.10:56431', reason_code: 'success',
      is_anonymous: false, is_superuser: false, ...COMMON, client_attrs: {},
    },
    test: { clientid: 'The clientid of the client', username: 'The username of the client', reason_code: 'The reason code', is_superuser: 'Whether the client is a superuser', is_anonymous: 'Whether the client is anonymous' },
    sql: 'SELECT * FROM "$events/client_check_authn_complete"',
  },
  {
    name: 'session_subscribed', eventColumn: 'session.subscribed',
    title: ['Session subscribed', '会话订阅完成'], description: ['Session subscribed', '会话订阅完成'],
    example: { event: 'session.subscribed', clientid: 'c_emqx', username: 'u_emqx', peerhost: '192.168.0.10', topic: 't/a', qos: 1, sub_props: { 'User-Property': {} }, ...COMMON, client_attrs: {} },
    test: { clientid: 'The clientid of the client', username: 'The username of the client', topic: 'The topic subscribed to', qos: 'The QoS of the subscription' },
    sql: `SELECT * FROM "$events/session_subscribed" WHERE topic =~ 't/#'`,
  },
  {
    name: 'session_unsubscribed', eventColumn: 'session.unsubscribed',
    title: ['Session unsubscribed', '会话取消订阅完成'], description: ['Session unsubscribed', '会话取消订阅完成'],
    example: { event: 'session.unsubscribed', clientid: 'c_emqx', username: 'u_emqx', peerhost: '192.168.0.10', topic: 't/a', qos: 1, unsub_props: { 'User-Property': {} }, ...COMMON, client_attrs: {} },
    test: { clientid: 'The clientid of the client', username: 'The username of the client', topic: 'The topic unsubscribed from', qos: 'The QoS of the subscription' },
    sql: `SELECT * FROM "$events/session_unsubscribed" WHERE topic =~ 't/#'`,
  },
  {
    name: 'sys/alarm_activated', eventColumn: 'alarm.activated',
    title: ['Alarm activated', ''], description: ['An alarm was activated', ''],
    example: { event: 'alarm.activated', name: 'alarm_name', details: { some_key_name: 'some value' }, message: 'some message', activated_at: EXAMPLE_TS, ...COMMON },
    test: { name: 'The name of the alarm', details: 'The details of the alarm', message: 'The message of the alarm', activated_at: 'When the alarm was activated' },
    sql: 'SELECT * FROM "$events/sys/alarm_activated"',
  },
  {
    name: 'sys/alarm_deactivated', eventColumn: 'alarm.deactivated',
    title: ['Alarm deactivated', ''], description: ['An alarm was deactivated', ''],
    example: { event: 'alarm.deactivated', name: 'alarm_name', details: { some_key_name: 'some value' }, message: 'some message', activated_at: EXAMPLE_TS, deactivated_at: EXAMPLE_TS, ...COMMON },
    test: { name: 'The name of the alarm', details: 'The details of the alarm', message: 'The message of the alarm', activated_at: 'When the alarm was activated', deactivated_at: 'When the alarm was deactivated' },
    sql: 'SELECT * FROM "$events/sys/alarm_deactivated"',
  },
  // emqx_rule_events.erl (e5.8.9) eventmsg_validation_failed / eventmsg_transformation_failed.
  {
    name: 'schema_validation_failed', eventColumn: 'schema.validation_failed', availability: { app: 'emqx_schema_validation', since: '5.7.0' },
    title: ['schema validation failed', 'schema 验证失败'], description: ['messages that do not pass configured validations', '未通过验证的消息'],
    example: {
      event: 'schema.validation_failed', validation: 'my_validation', id: PUBLISH.id, clientid: 'c_emqx', username: 'u_emqx', payload: PUBLISH.payload,
      peerhost: PUBLISH.peerhost, peername: '192.168.0.10:32781', topic: 't/a', qos: 1, flags: {}, publish_received_at: EXAMPLE_TS, pub_props: PUBLISH.pub_props, ...COMMON,
    },
    test: { validation: 'The validation name', ...PUBLISH_TEST }, sql: `SELECT * FROM "$events/schema_validation_failed" WHERE topic =~ 't/#'`,
  },
  {
    name: 'message_transformation_failed', eventColumn: 'message.transformation_failed', availability: { app: 'emqx_message_transformation', since: '5.8.0' },
    // The broker's own example names the column `validation` (columns_with_exam/1); the live event says `transformation`.
    title: ['message transformation failed', 'message 验证失败'], description: ['messages that do not pass configured transformation', '未通过验证的消息'],
    example: {
      event: 'message.transformation_failed', validation: 'my_transformation', id: PUBLISH.id, clientid: 'c_emqx', username: 'u_emqx', payload: PUBLISH.payload,
      peername: PUBLISH.peername, topic: 't/a', qos: 1, flags: {}, publish_received_at: EXAMPLE_TS, pub_props: PUBLISH.pub_props, ...COMMON,
    },
    test: { transformation: 'The transformation name', ...PUBLISH_TEST }, sql: `SELECT * FROM "$events/message_transformation_failed" WHERE topic =~ 't/#'`,
  },
];

const BRIDGE_MQTT: EventDef = {
  name: '$bridges/mqtt:*', eventColumn: '$bridges/mqtt:*',
  title: ['MQTT source', 'MQTT 数据源'], description: ['Messages received by an MQTT source', 'MQTT 数据源收到的消息'],
  example: {
    id: '0005F8F84FFFAFB9F44200000D810002', payload: 'hello', topic: 't/a', server: '127.0.0.1:1883', dup: false, retain: false,
    pub_props: { 'User-Property': {} }, message_received_at: EXAMPLE_TS, qos: 1, ...COMMON,
  },
  test: { topic: 'The topic of the message', qos: 'The QoS of the message', payload: 'The payload of the message' },
  sql: `SELECT * FROM "$bridges/mqtt:my_mqtt_bridge" WHERE topic =~ 't/#'`,
};

const BY_NAME = new Map(DEFS.map((d) => [d.name, d]));

function describe(def: EventDef, event: string): RuleEvent {
  const test_columns: Record<string, [unknown, string]> = {};
  for (const [key, text] of Object.entries(def.test)) test_columns[key] = [def.example[key], text];
  return {
    event,
    title: { en: def.title[0], zh: def.title[1] },
    description: { en: def.description[0], zh: def.description[1] },
    columns: Object.keys(def.example),
    test_columns,
    sql_example: def.sql,
  };
}

/** GET /rule_events: the events of a release (`has` tells whether it has an event's module). */
export function ruleEvents(has: (a: Availability) => boolean = () => true): RuleEvent[] {
  return [...DEFS.filter((d) => !d.availability || has(d.availability)).map((d) => describe(d, `$events/${d.name}`)), describe(BRIDGE_MQTT, BRIDGE_MQTT.name)];
}

/** The event definition for a rule_test `event_type` (`message_publish`, `client_connected`, `$bridges/mqtt:*` …). */
export function eventByType(type: string): { name: string; eventColumn: string; example: Record<string, unknown> } | null {
  if (type.startsWith('$bridges/')) return BRIDGE_MQTT;
  return BY_NAME.get(type) ?? null;
}

/** Example columns stamped with the evaluation time, as rule_test fills a context. */
export function exampleColumns(type: string, now: number): Record<string, unknown> | null {
  const def = eventByType(type);
  if (!def) return null;
  const out: Record<string, unknown> = structuredClone(def.example);
  for (const key of ['timestamp', 'publish_received_at', 'connected_at', 'disconnected_at', 'message_received_at']) {
    if (key in out) out[key] = now;
  }
  return out;
}
