/**
 * Field blocks shared by authenticator and authorizer kinds (api part2 §2.5): SQL, Redis, MongoDB,
 * HTTP and LDAP connections and the TLS block, as flat dotted `FieldDecl`s, plus the conversion
 * between a nested config and form values. Kinds combine blocks; they do not repeat them.
 */
import { t } from '../../lib/i18n.ts';
import { flatten, unflatten } from '../../lib/paths.ts';
import { isEmpty, numberRange, type Rule } from '../../lib/validators.ts';
import type { FieldDecl } from '../../ui/resource.ts';
import { tlsFields } from '../../ui/tls.ts';
import './messages.ts';

type Values = Record<string, unknown>;

/** What a kind of authenticator or authorizer declares: its fields, defaults and JSON-valued keys. */
export interface KindDecl {
  fields: FieldDecl[];
  defaults: Values;
  /** Keys whose value is an object edited as JSON text (headers, body, filter, verify_claims). */
  json?: string[];
}

/** JSON text of an object. */
export const jsonObject: Rule = (value) => {
  if (isEmpty(value)) return undefined;
  try {
    const parsed = JSON.parse(String(value));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? undefined : t('access.jsonObject');
  } catch {
    return t('validation.json');
  }
};

/** A duration such as `5s`, `500ms`, `1h` (EMQX's Duration type). */
export const durationRule: Rule = (value) =>
  isEmpty(value) || /^\d+(\.\d+)?\s*(ms|s|m|h|d)?$/.test(String(value).trim()) ? undefined : t('access.durationHelp');

const options = (values: string[], label = (v: string) => v) => values.map((value) => ({ value, label: label(value) }));
const is = (name: string, ...values: unknown[]) => (v: Values) => values.includes(v[name]);

export const duration = (name: string, label: string): FieldDecl => ({ name, label, kind: 'duration', rules: [durationRule], help: 'access.durationHelp' });
const poolSize: FieldDecl = { name: 'pool_size', label: 'access.poolSize', kind: 'number', rules: [numberRange(1, 1024)] };
const username: FieldDecl = { name: 'username', label: 'access.username' };
const password: FieldDecl = { name: 'password', label: 'access.password', kind: 'secret' };

/** The client TLS block every connection has (kinds put it last: `ssl.enable`, verify, PEM files with an extension check, SNI …). */
export const ssl: FieldDecl[] = tlsFields('ssl');

export const sql: FieldDecl[] = [
  { name: 'server', label: 'access.server', required: true, placeholder: '127.0.0.1:3306' },
  { name: 'database', label: 'access.database', required: true },
  username, password, poolSize,
];

export const redis: FieldDecl[] = [
  { name: 'redis_type', label: 'access.redisType', kind: 'select', options: options(['single', 'cluster', 'sentinel']) },
  { name: 'server', label: 'access.server', required: true, visible: is('redis_type', 'single'), placeholder: '127.0.0.1:6379' },
  { name: 'servers', label: 'access.servers', required: true, visible: is('redis_type', 'cluster', 'sentinel'), help: 'access.serversHelp' },
  { name: 'sentinel', label: 'access.sentinel', required: true, visible: is('redis_type', 'sentinel') },
  { name: 'database', label: 'access.database', kind: 'number', visible: (v) => v.redis_type !== 'cluster' },
  username, password, poolSize,
];

export const mongo: FieldDecl[] = [
  { name: 'mongo_type', label: 'access.mongoType', kind: 'select', options: options(['single', 'rs', 'sharded']) },
  { name: 'server', label: 'access.server', required: true, visible: is('mongo_type', 'single'), placeholder: '127.0.0.1:27017' },
  { name: 'servers', label: 'access.servers', required: true, visible: is('mongo_type', 'rs', 'sharded'), help: 'access.serversHelp' },
  { name: 'replica_set_name', label: 'access.replicaSet', required: true, visible: is('mongo_type', 'rs') },
  { name: 'r_mode', label: 'access.rMode', kind: 'select', options: options(['master', 'slave_ok']), visible: is('mongo_type', 'rs') },
  { name: 'w_mode', label: 'access.wMode', kind: 'select', options: options(['unsafe', 'safe']) },
  { name: 'srv_record', label: 'access.srvRecord', kind: 'switch' },
  { name: 'database', label: 'access.database', required: true },
  username, password,
  { name: 'auth_source', label: 'access.authSource' },
  poolSize,
];

export const http: FieldDecl[] = [
  { name: 'method', label: 'access.method', kind: 'select', options: options(['post', 'get'], (v) => v.toUpperCase()) },
  { name: 'url', label: 'access.url', required: true, placeholder: 'http://127.0.0.1:8080' },
  { name: 'headers', label: 'access.headers', kind: 'code', rules: [jsonObject] },
  { name: 'body', label: 'access.body', kind: 'code', rules: [jsonObject], help: 'access.jsonHelp' },
  duration('connect_timeout', 'access.connectTimeout'),
  duration('request_timeout', 'access.requestTimeout'),
  poolSize,
  { name: 'enable_pipelining', label: 'access.pipelining', kind: 'number', rules: [numberRange(1, 1000000)] },
];

export const ldap: FieldDecl[] = [
  { name: 'server', label: 'access.server', required: true, placeholder: '127.0.0.1:389' },
  username, password,
  { name: 'base_dn', label: 'access.baseDn', required: true, placeholder: 'uid=${username},ou=testdevice,dc=emqx,dc=io' },
  { name: 'filter', label: 'access.ldapFilter', placeholder: '(objectClass=mqttUser)' },
  duration('request_timeout', 'access.requestTimeout'),
  duration('query_timeout', 'access.queryTimeout'),
  poolSize,
];

const baseHeaders = { accept: 'application/json', 'cache-control': 'no-cache', connection: 'keep-alive', 'keep-alive': 'timeout=30, max=1000' };
export const defaults = {
  ssl: { enable: false, verify: 'verify_none' },
  sql: (server: string) => ({ server, database: 'mqtt', username: 'root', password: '', pool_size: 8 }),
  redis: { redis_type: 'single', server: '127.0.0.1:6379', database: 0, password: '', pool_size: 8 },
  mongo: { mongo_type: 'single', server: '127.0.0.1:27017', w_mode: 'unsafe', srv_record: false, database: 'mqtt', pool_size: 8 },
  http: (requestTimeout: string, body: Values) => ({
    method: 'post', url: 'http://127.0.0.1:8080', headers: { ...baseHeaders, 'content-type': 'application/json' }, body,
    connect_timeout: '15s', request_timeout: requestTimeout, pool_size: 8, enable_pipelining: 100,
  }),
  ldap: { server: '127.0.0.1:389', username: 'root', password: '', base_dn: 'uid=${username},ou=testdevice,dc=emqx,dc=io', filter: '(objectClass=mqttUser)', request_timeout: '10s', query_timeout: '5s', pool_size: 8 },
};

/** A nested config → flat form values; JSON-valued keys become indented text. */
export function toValues(config: Values, kind: KindDecl): Values {
  const rest = { ...config };
  const text: Values = {};
  for (const key of kind.json ?? []) {
    if (key in rest) text[key] = JSON.stringify(rest[key] ?? {}, null, 2);
    delete rest[key];
  }
  return { ...flatten(rest), ...text };
}

/**
 * Form values → the nested request body: fields hidden for these values are dropped, blank
 * values the original config did not have are dropped, JSON text is parsed, and a GET HTTP
 * backend loses `content-type` (EMQX refuses it there, api part2 §2.5).
 */
export function toBody(values: Values, kind: KindDecl, original: Values): Values {
  const out: Values = { ...values };
  for (const field of kind.fields) {
    if (field.visible && !field.visible(values)) delete out[field.name];
    else if (out[field.name] === '' && !(field.name in original)) delete out[field.name];
  }
  for (const key of kind.json ?? []) if (typeof out[key] === 'string') out[key] = out[key] === '' ? {} : JSON.parse(out[key] as string);
  const body = unflatten(out);
  const headers = body.headers as Values | undefined;
  if (body.method === 'get' && headers) delete headers['content-type'];
  return body;
}
