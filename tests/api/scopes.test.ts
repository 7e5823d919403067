// API key scopes from 5.9 (emqx_mgmt_auth.erl check_scopes/2 and emqx_mgmt_api_api_keys.erl
// validate_scopes/2 at e5.10.4 and 6.2.2): a key reaches only the routes of the scopes it holds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

const basic = (key: { api_key: string; api_secret: string }) => ({ authorization: `Basic ${Buffer.from(`${key.api_key}:${key.api_secret}`).toString('base64')}` });

for (const version of ['5.10.4', '6.2.2'] as const) {
  test(`${version}: a key with the publish scope publishes and may not list clients; unknown scopes are refused`, async () => {
    const app = await buildTestApp({ emqxVersion: version });
    const token = await login(app);
    const catalogue = (await api(app, 'GET', '/api/v5/api_key_scopes', { token })).json();
    assert.ok(catalogue.scopes.some((s: { name: string }) => s.name === 'publish'));
    const made = await api(app, 'POST', '/api/v5/api_key', { token, body: { name: 'pub', scopes: ['publish'] } });
    assert.is(made.statusCode, 200, made.body);
    assert.equal(made.json().scopes, ['publish']);
    const headers = basic(made.json());
    assert.is((await api(app, 'GET', '/api/v5/clients', { headers })).statusCode, 403);
    const sent = await api(app, 'POST', '/api/v5/publish', { headers, body: { topic: 't/1', payload: 'x' } });
    assert.ok(sent.statusCode < 300, sent.body);
    // A key made without scopes gets every scope of its role.
    const all = await api(app, 'POST', '/api/v5/api_key', { token, body: { name: 'all' } });
    assert.is((await api(app, 'GET', '/api/v5/clients', { headers: basic(all.json()) })).statusCode, 200);
    const bad = await api(app, 'POST', '/api/v5/api_key', { token, body: { name: 'bad', scopes: ['no_such_scope'] } });
    assert.is(bad.statusCode, 400);
    await app.close();
  });
}

test('5.8.9 knows no scopes: the field is refused', async () => {
  const app = await buildTestApp({ emqxVersion: '5.8.9' });
  const res = await api(app, 'POST', '/api/v5/api_key', { token: await login(app), body: { name: 'k', scopes: ['publish'] } });
  assert.is(res.statusCode, 400);
  assert.match(res.json().message, 'scopes');
  await app.close();
});

test.run();
