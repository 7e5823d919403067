/**
 * The authenticator kinds (api part2 §2.3–§2.5) as a registry keyed by id (`mechanism:backend`):
 * each entry is its fields and defaults, built from the shared blocks. The wizard, the settings
 * tab and the list read this table; adding a kind is adding an entry.
 */
import { numberRange } from '../../../lib/validators.ts';
import type { FieldDecl } from '../../../ui/resource.ts';
import { defaults, duration, http, jsonObject, ldap, mongo, redis, sql, ssl, type KindDecl } from '../blocks.ts';
import './messages.ts';

type Values = Record<string, unknown>;
const opts = (values: string[], prefix = '') => values.map((value) => ({ value, label: prefix ? `${prefix}${value}` : value }));
const algo = (v: Values) => String(v['password_hash_algorithm.name'] ?? '');
const SIMPLE = ['plain', 'md5', 'sha', 'sha256', 'sha512'];

/** The password hash (§2.4); `builtIn` adds bcrypt's salt rounds, which only a writable store uses. */
export function hash(builtIn: boolean): FieldDecl[] {
  return [
    { name: 'password_hash_algorithm.name', label: 'authn.hashAlgorithm', kind: 'select', options: opts([...SIMPLE, 'bcrypt', 'pbkdf2']) },
    { name: 'password_hash_algorithm.salt_position', label: 'authn.saltPosition', kind: 'select', options: opts(['prefix', 'suffix', 'disable'], 'authn.salt.'), visible: (v) => SIMPLE.includes(algo(v)) },
    ...(builtIn ? [{ name: 'password_hash_algorithm.salt_rounds', label: 'authn.saltRounds', kind: 'number', rules: [numberRange(5, 10)], visible: (v: Values) => algo(v) === 'bcrypt' } as FieldDecl] : []),
    { name: 'password_hash_algorithm.mac_fun', label: 'authn.macFun', kind: 'select', options: opts(['sha256', 'sha224', 'sha384', 'sha512', 'sha']), visible: (v) => algo(v) === 'pbkdf2' },
    { name: 'password_hash_algorithm.iterations', label: 'authn.iterations', kind: 'number', required: true, rules: [numberRange(1, 100000000)], visible: (v) => algo(v) === 'pbkdf2' },
    { name: 'password_hash_algorithm.dk_length', label: 'authn.dkLength', kind: 'number', rules: [numberRange(1, 1024)], visible: (v) => algo(v) === 'pbkdf2' },
  ];
}

const readOnlyHash = { name: 'sha256', salt_position: 'prefix', mac_fun: 'sha256', iterations: 4096 };
const fieldsOf = (names: string[]): FieldDecl[] => names.map((name) => ({ name, label: `authn.${name}` }));
const withSsl = (values: Values) => ({ ...values, ssl: defaults.ssl });
const jwtIs = (fn: (v: Values) => boolean) => (v: Values) => fn(v);
const hmac = (v: Values) => !v.use_jwks && v.algorithm === 'hmac-based';
const pubKey = (v: Values) => !v.use_jwks && v.algorithm === 'public-key';

export const AUTHN_KINDS: Record<string, KindDecl> = {
  'password_based:built_in_database': {
    fields: [{ name: 'user_id_type', label: 'authn.userIdType', kind: 'select', options: opts(['username', 'clientid'], 'authn.idType.') }, ...hash(true)],
    defaults: { user_id_type: 'username', password_hash_algorithm: { name: 'sha256', salt_position: 'suffix', salt_rounds: 10, mac_fun: 'sha256', iterations: 4096 } },
  },
  'password_based:mysql': {
    fields: [...sql, { name: 'query', label: 'access.query', kind: 'code', required: true }, duration('query_timeout', 'access.queryTimeout'), ...hash(false), ...ssl],
    defaults: withSsl({ ...defaults.sql('127.0.0.1:3306'), query: 'SELECT password_hash, salt, is_superuser FROM mqtt_user WHERE username = ${username} LIMIT 1', query_timeout: '5s', password_hash_algorithm: readOnlyHash }),
  },
  'password_based:postgresql': {
    fields: [...sql, { name: 'query', label: 'access.query', kind: 'code', required: true }, { name: 'disable_prepared_statements', label: 'access.disablePrepared', kind: 'switch' }, ...hash(false), ...ssl],
    defaults: withSsl({ ...defaults.sql('127.0.0.1:5432'), query: 'SELECT password_hash, salt, is_superuser FROM mqtt_user WHERE username = ${username} LIMIT 1', disable_prepared_statements: false, password_hash_algorithm: readOnlyHash }),
  },
  'password_based:mongodb': {
    fields: [...mongo, { name: 'collection', label: 'access.collection', required: true }, { name: 'filter', label: 'access.filter', kind: 'code', rules: [jsonObject], help: 'access.jsonHelp' },
      ...fieldsOf(['password_hash_field', 'salt_field', 'is_superuser_field']), ...hash(false), ...ssl],
    defaults: withSsl({ ...defaults.mongo, collection: 'users', filter: { username: '${username}' }, password_hash_field: 'password_hash', salt_field: 'salt', is_superuser_field: 'is_superuser', password_hash_algorithm: readOnlyHash }),
    json: ['filter'],
  },
  'password_based:redis': {
    fields: [...redis, { name: 'cmd', label: 'access.cmd', required: true }, ...hash(false), ...ssl],
    defaults: withSsl({ ...defaults.redis, cmd: 'HMGET mqtt_user:${username} password_hash salt is_superuser', password_hash_algorithm: readOnlyHash }),
  },
  'password_based:http': {
    fields: [...http, ...ssl],
    defaults: withSsl(defaults.http('5s', { username: '${username}', password: '${password}' })),
    json: ['headers', 'body'],
  },
  'password_based:ldap': {
    fields: [...ldap,
      { name: 'method.type', label: 'authn.ldapMethod', kind: 'select', options: opts(['hash', 'bind'], 'authn.ldap.') },
      { name: 'method.password_attribute', label: 'authn.passwordAttribute', visible: (v) => v['method.type'] === 'hash' },
      { name: 'method.is_superuser_attribute', label: 'authn.isSuperuserAttribute', visible: (v) => v['method.type'] === 'hash' },
      { name: 'method.bind_password', label: 'authn.bindPassword', visible: (v) => v['method.type'] === 'bind' }, ...ssl],
    defaults: withSsl({ ...defaults.ldap, method: { type: 'hash', password_attribute: 'userPassword', is_superuser_attribute: 'isSuperuser', bind_password: '${password}' } }),
  },
  jwt: {
    fields: [
      { name: 'use_jwks', label: 'authn.useJwks', kind: 'switch' },
      { name: 'algorithm', label: 'authn.jwtAlgorithm', kind: 'select', options: opts(['hmac-based', 'public-key'], 'authn.jwt.'), visible: (v) => !v.use_jwks },
      { name: 'secret', label: 'authn.secret', kind: 'secret', required: true, visible: jwtIs(hmac) },
      { name: 'secret_base64_encoded', label: 'authn.secretBase64', kind: 'switch', visible: jwtIs(hmac) },
      { name: 'public_key', label: 'authn.publicKey', kind: 'cert', required: true, visible: jwtIs(pubKey) },
      { name: 'endpoint', label: 'authn.endpoint', required: true, visible: (v) => Boolean(v.use_jwks), placeholder: 'https://127.0.0.1:8080/jwks' },
      { name: 'refresh_interval', label: 'authn.refreshInterval', kind: 'number', rules: [numberRange(1, 4294967295)], help: 'authn.seconds', visible: (v) => Boolean(v.use_jwks) },
      ...ssl.map((field) => ({ ...field, visible: (v: Values) => Boolean(v.use_jwks) && (!field.visible || field.visible(v)) })),
      { name: 'from', label: 'authn.from', kind: 'select', options: opts(['password', 'username'], 'authn.fromOpt.') },
      { name: 'acl_claim_name', label: 'authn.aclClaimName' },
      { name: 'verify_claims', label: 'authn.verifyClaims', kind: 'code', rules: [jsonObject], help: 'authn.verifyClaimsHelp' },
      { name: 'disconnect_after_expire', label: 'authn.disconnectAfterExpire', kind: 'switch', requires: 'jwtDisconnectAfterExpire' },
    ],
    defaults: { use_jwks: false, algorithm: 'hmac-based', secret: '', secret_base64_encoded: false, public_key: '', endpoint: '', refresh_interval: 300, ssl: defaults.ssl, from: 'password', acl_claim_name: 'acl', verify_claims: {}, disconnect_after_expire: true },
    json: ['verify_claims'],
  },
  'scram:built_in_database': {
    fields: [
      { name: 'algorithm', label: 'authn.scramAlgorithm', kind: 'select', options: opts(['sha256', 'sha512']) },
      { name: 'iteration_count', label: 'authn.iterationCount', kind: 'number', required: true, rules: [numberRange(1, 100000000)] },
    ],
    defaults: { algorithm: 'sha256', iteration_count: 4096 },
  },
};

/** Backends offered for each mechanism in the wizard, in the order EMQX's console shows them. */
export const BACKENDS: Record<string, string[]> = {
  password_based: ['built_in_database', 'mysql', 'postgresql', 'mongodb', 'redis', 'http', 'ldap'],
  jwt: [],
  scram: ['built_in_database'],
};

/** The authenticator id EMQX derives from mechanism and backend (api part2 §1.4). */
export const authnId = (mechanism: string, backend?: string) => (backend ? `${mechanism}:${backend}` : mechanism);
