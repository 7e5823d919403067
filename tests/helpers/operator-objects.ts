// One of each thing an operator makes that has a detail screen and a detail GET: a connector, an
// action using it, a rule sending to it, an ExHook server, a trace, an authenticator and a loaded
// gateway. Sent in this order to `/api/v5` by the tests that look at those details.
export type Made = readonly ['POST' | 'PUT', string, Record<string, unknown>];

export const OPERATOR_OBJECTS: readonly Made[] = [
  ['POST', '/connectors', { type: 'http', name: 'web', url: 'http://127.0.0.1:9/in', headers: {} }],
  ['POST', '/actions', { type: 'http', name: 'out', connector: 'web', parameters: { path: '/x' } }],
  ['POST', '/rules', { id: 'r1', sql: 'SELECT * FROM "t/#"', actions: ['http:out'] }],
  ['POST', '/exhooks', { name: 'hook1', url: 'http://127.0.0.1:9', enable: false }],
  ['POST', '/trace', { name: 'kept', type: 'clientid', clientid: 'keeper' }],
  ['POST', '/authentication', { mechanism: 'password_based', backend: 'built_in_database', user_id_type: 'username', password_hash_algorithm: { name: 'sha256', salt_position: 'suffix' } }],
  ['PUT', '/gateways/mqttsn', { name: 'mqttsn', enable: true, gateway_id: 7, listeners: [{ type: 'udp', name: 'default', bind: '127.0.0.1:0' }] }],
];
