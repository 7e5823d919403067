import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canWrite, compareVersions, has, pruneBody } from '../../web/lib/broker.ts';

const ee55 = { version: '5.5.1', edition: 'ee' };
const ee58 = { version: '5.8.9', edition: 'ee' };
const ce58 = { version: '5.8.9', edition: 'ce' };

test('versions compare by number, not by text', () => {
  assert.ok(compareVersions('5.10.0', '5.8.9') > 0);
  assert.ok(compareVersions('5.8.2', '5.8.10') < 0);
  assert.is(compareVersions('v5.8.0', '5.8'), 0);
  assert.is(compareVersions('5.8.0-rc.1', '5.8.0'), 0);
});

test('capabilities follow version and edition; an unknown version reads as the oldest, an unknown edition as Community', () => {
  assert.not.ok(has('pluginSchema', ee55));
  assert.ok(has('pluginSchema', ee58));
  assert.not.ok(has('importUsersCounts', { version: '5.8.1', edition: 'ee' }));
  assert.ok(has('importUsersCounts', { version: '5.8.2', edition: 'ee' }));
  assert.ok(has('license', ee55));
  assert.not.ok(has('license', ce58));
  assert.not.ok(has('actionsCarryRules', { version: '', edition: 'ee' }));
  assert.not.ok(has('schemaRegistry', { version: '5.8.9', edition: '' }));
});

test('5.9 on there is one edition: every Enterprise feature is on whatever the login calls it; MFA from 5.9, namespaces from 6.0', () => {
  for (const edition of ['ee', 'ce', '']) {
    assert.ok(has('license', { version: '5.10.4', edition }));
    assert.ok(has('rbac', { version: '6.2.2', edition }));
    assert.ok(has('openTelemetry', { version: '6.2.2', edition }));
  }
  assert.not.ok(has('dashboardMfa', ee58));
  assert.ok(has('dashboardMfa', { version: '5.10.4', edition: 'ee' }));
  assert.ok(has('listenerLimits', { version: '5.10.4', edition: 'ee' }));
  assert.ok(has('globalLimiter', ee58));
  assert.not.ok(has('globalLimiter', { version: '5.10.4', edition: 'ee' }));
  assert.not.ok(has('namespaces', { version: '5.10.4', edition: 'ee' }));
  assert.ok(has('namespaces', { version: '6.2.2', edition: 'ee' }));
});

test('bodies lose the fields the broker would refuse, and only on the paths that take them', () => {
  assert.equal(pruneBody('POST', '/authorization/sources', { type: 'built_in_database', max_rules: 100 }, ee55), { type: 'built_in_database' });
  assert.equal(pruneBody('POST', '/authorization/sources', { type: 'built_in_database', max_rules: 100 }, ee58), { type: 'built_in_database', max_rules: 100 });
  assert.equal(pruneBody('PUT', '/authentication/jwt', { mechanism: 'jwt', disconnect_after_expire: true }, ee55), { mechanism: 'jwt' });
  assert.equal(pruneBody('POST', '/gateways/stomp/authentication', { bootstrap_file: 'f', bootstrap_type: 'plain', backend: 'built_in_database' }, ee55), { backend: 'built_in_database' });
  assert.equal(pruneBody('POST', '/data/export', { table_sets: ['banned'] }, ee55), {});
  assert.equal(pruneBody('POST', '/users', { username: 'u', role: 'viewer' }, ce58), { username: 'u' });
  assert.equal(pruneBody('POST', '/users', { username: 'u', role: 'viewer' }, ee55), { username: 'u', role: 'viewer' });
  // Unrelated paths keep a same-named field (a rule's own field, an array body).
  assert.equal(pruneBody('POST', '/rules', { max_rules: 1 }, ee55), { max_rules: 1 });
  const users = [{ user_id: 'a' }];
  assert.is(pruneBody('POST', '/authentication/x/import_users', users, ee55), users);
});

test('OpenTelemetry left the Community build in 5.8: 5.5 Community and every Enterprise have it', () => {
  assert.ok(has('openTelemetry', { version: '5.5.1', edition: 'ce' }));
  assert.ok(has('openTelemetry', { version: '5.8.9', edition: 'ee' }));
  assert.not.ok(has('openTelemetry', { version: '5.8.9', edition: 'ce' }));
});

test('only an Enterprise viewer is read-only', () => {
  assert.not.ok(canWrite({ ...ee55, role: 'viewer' }));
  assert.ok(canWrite({ ...ee55, role: 'administrator' }));
  assert.ok(canWrite({ ...ce58, role: 'viewer' }));
});

test.run();
