/**
 * The gateway authenticator form (§19.3; field names of EMQX's authenticator configs): the
 * mechanisms and backends a gateway may use come from its kind (spec part1 §5), hash algorithms
 * are plain, md5, sha, sha256 and sha512. `mechanism: none` (wizard only) means no authenticator.
 */
import { flatten, unflatten } from '../../../lib/paths.ts';
import { json } from '../../../lib/validators.ts';
import type { FieldDecl } from '../../../ui/resource.ts';
import type { GatewayKind } from './kinds.ts';
import './messages.ts';

type Values = Record<string, unknown>;
const LABELS: Record<string, string> = {
  none: 'gateway.none', password_based: 'gateway.passwordBased', jwt: 'JWT', scram: 'SCRAM',
  built_in_database: 'gateway.builtIn', mysql: 'MySQL', mongodb: 'MongoDB', postgresql: 'PostgreSQL', redis: 'Redis',
};
const choose = (values: string[]) => values.map((value) => ({ value, label: LABELS[value] ?? value }));
const is = (mechanism: string, ...backends: string[]) => (v: Values) => v.mechanism === mechanism && (!backends.length || backends.includes(String(v.backend)));
const SQL = ['mysql', 'postgresql'];
const REMOTE = ['mysql', 'postgresql', 'mongodb', 'redis'];

export function authFields(kind: GatewayKind, withNone: boolean): FieldDecl[] {
  return [
    { name: 'mechanism', label: 'gateway.mechanism', kind: 'select', options: choose([...(withNone ? ['none'] : []), ...kind.mechanisms]) },
    { name: 'backend', label: 'gateway.backend', kind: 'select', options: choose(kind.backends), visible: is('password_based') },
    { name: 'user_id_type', label: 'gateway.userIdType', kind: 'select', options: choose(['username', 'clientid']), visible: is('password_based', 'built_in_database') },
    { name: 'password_hash_algorithm.name', label: 'gateway.hash', kind: 'select', options: choose(['sha256', 'sha512', 'sha', 'md5', 'plain']), visible: is('password_based') },
    { name: 'password_hash_algorithm.salt_position', label: 'gateway.saltPosition', kind: 'select', options: choose(['suffix', 'prefix', 'disable']), visible: is('password_based') },
    { name: 'server', label: 'gateway.server', required: true, placeholder: '127.0.0.1:3306', visible: is('password_based', ...REMOTE) },
    { name: 'database', label: 'gateway.database', required: true, visible: is('password_based', ...SQL, 'mongodb') },
    { name: 'username', label: 'gateway.username', visible: is('password_based', ...SQL, 'mongodb') },
    { name: 'password', label: 'gateway.password', kind: 'secret', visible: is('password_based', ...REMOTE) },
    { name: 'query', label: 'gateway.query', kind: 'code', required: true, visible: is('password_based', ...SQL) },
    { name: 'collection', label: 'gateway.collection', required: true, visible: is('password_based', 'mongodb') },
    { name: 'filter', label: 'gateway.filter', kind: 'code', rules: [json], visible: is('password_based', 'mongodb') },
    { name: 'cmd', label: 'gateway.cmd', required: true, visible: is('password_based', 'redis') },
    { name: 'from', label: 'gateway.jwtFrom', kind: 'select', options: choose(['password', 'username']), visible: is('jwt') },
    { name: 'algorithm', label: 'gateway.jwtAlgorithm', kind: 'select', options: choose(['hmac-based', 'public-key']), visible: is('jwt') },
    { name: 'secret', label: 'gateway.secret', kind: 'secret', required: true, visible: (v) => v.mechanism === 'jwt' && v.algorithm !== 'public-key' },
    { name: 'public_key', label: 'gateway.publicKey', kind: 'cert', required: true, visible: (v) => v.mechanism === 'jwt' && v.algorithm === 'public-key' },
    { name: 'scram_algorithm', label: 'gateway.scramAlgorithm', kind: 'select', options: choose(['sha256', 'sha512']), visible: is('scram') },
    { name: 'iteration_count', label: 'gateway.iterations', kind: 'number', required: true, visible: is('scram') },
  ];
}

const DEFAULTS: Values = {
  mechanism: 'password_based', backend: 'built_in_database', user_id_type: 'username',
  'password_hash_algorithm.name': 'sha256', 'password_hash_algorithm.salt_position': 'suffix',
  query: 'SELECT password_hash, salt FROM mqtt_user WHERE username = ${username} LIMIT 1',
  collection: 'users', filter: '{"username": "${username}"}', cmd: 'HMGET mqtt_user:${username} password_hash salt',
  from: 'password', algorithm: 'hmac-based', scram_algorithm: 'sha256', iteration_count: 4096,
};

/** Form values of an authenticator, or of a new one (`none` first in the wizard). */
export function authValues(config: Values | undefined, withNone = false): Values {
  if (!config) return { ...DEFAULTS, mechanism: withNone ? 'none' : 'password_based' };
  const flat = flatten(config);
  if (config.mechanism === 'scram') flat.scram_algorithm = config.algorithm;
  if (config.filter) flat.filter = JSON.stringify(config.filter);
  return { ...DEFAULTS, ...flat };
}

const pick = (v: Values, keys: string[]) => Object.fromEntries(keys.filter((k) => v[k] !== undefined && v[k] !== '').map((k) => [k, v[k]]));

/** The authenticator body for these values, or undefined for `none`. */
export function authBody(v: Values): Values | undefined {
  if (v.mechanism === 'none') return undefined;
  if (v.mechanism === 'scram') return { mechanism: 'scram', backend: 'built_in_database', algorithm: v.scram_algorithm, iteration_count: Number(v.iteration_count) };
  if (v.mechanism === 'jwt') {
    const key = v.algorithm === 'public-key' ? 'public_key' : 'secret';
    return { mechanism: 'jwt', from: v.from, use_jwks: false, algorithm: v.algorithm, [key]: v[key], ...(key === 'secret' ? { secret_base64_encoded: false } : {}), verify_claims: {} };
  }
  const hash = unflatten(pick(v, ['password_hash_algorithm.name', 'password_hash_algorithm.salt_position']));
  const head = { mechanism: 'password_based', backend: v.backend, ...hash };
  switch (v.backend) {
    case 'built_in_database': return { ...head, user_id_type: v.user_id_type };
    case 'mongodb': return { ...head, mongo_type: 'single', ...pick(v, ['server', 'database', 'username', 'password', 'collection']), filter: JSON.parse(String(v.filter || '{}')), password_hash_field: 'password_hash', salt_field: 'salt' };
    case 'redis': return { ...head, redis_type: 'single', ...pick(v, ['server', 'password', 'cmd']) };
    default: return { ...head, ...pick(v, ['server', 'database', 'username', 'password', 'query']) };
  }
}
