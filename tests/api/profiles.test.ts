// The six broker profiles (store/profile.ts): each starts and reports itself in /login, /nodes,
// /status and /license as that release does (emqx_release.erl, emqx_dashboard_api.erl login/2,
// emqx_mgmt.erl node_info/0 at each tag); the default is the newest release; from 5.9 on there is
// one Enterprise edition, and asking for Community there is refused with a sentence. One app per
// profile, in this process.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildApp } from '../../simulator/app.ts';
import { DEFAULT_VERSION, PROFILES, parseProfile } from '../../simulator/store/profile.ts';
import { api, buildTestApp, login, spawnSimulator, request } from '../helpers/simulator.ts';

test('the six profiles are 5.5.1 and 5.8.9 in both editions, 5.10.4 and 6.2.2 Enterprise', () => {
  assert.equal(PROFILES.map((p) => `${p.version}-${p.edition}`), ['5.5.1-ee', '5.5.1-ce', '5.8.9-ee', '5.8.9-ce', '5.10.4-ee', '6.2.2-ee']);
  assert.is(DEFAULT_VERSION, '6.2.2');
});

for (const { version, edition } of PROFILES) {
  test(`${version}-${edition} reports itself in /login, /nodes, /status and /license`, async () => {
    const app = await buildTestApp({ emqxVersion: version, edition, nodes: 2 });
    const res = await api(app, 'POST', '/api/v5/login', { body: { username: 'admin', password: 'public' } });
    assert.is(res.statusCode, 200);
    // emqx_dashboard_api.erl login/2: `version => emqx_release:version()`, license edition.
    assert.is(res.json().version, version);
    assert.equal(res.json().license, { edition });
    const token = res.json().token as string;
    const nodes = (await api(app, 'GET', '/api/v5/nodes', { token })).json() as { version: string; edition: string }[];
    assert.equal(nodes.map((n) => [n.version, n.edition]), [[version, edition === 'ee' ? 'Enterprise' : 'Opensource'], [version, edition === 'ee' ? 'Enterprise' : 'Opensource']]);
    const status = (await api(app, 'GET', '/api/v5/status?format=json')).json();
    // emqx_release:version_with_prefix(): `e` for Enterprise, `v` for the Community build.
    assert.is(status.rel_vsn, `${edition === 'ee' ? 'e' : 'v'}${version}`);
    const license = await api(app, 'GET', '/api/v5/license', { token });
    if (edition === 'ce') {
      assert.is(license.statusCode, 404);
    } else {
      assert.is(license.statusCode, 200);
      const keys = Object.keys(license.json());
      // max_sessions from 5.6 (emqx_license_checker.erl), max_tps from 6.x (emqx_license_parser_v20220101.erl).
      assert.is(keys.includes('max_sessions'), version !== '5.5.1', `max_sessions on ${version}`);
      assert.is(keys.includes('max_tps'), version === '6.2.2', `max_tps on ${version}`);
      assert.ok(keys.includes('max_connections'));
    }
    await app.close();
  });
}

test('without a version the simulator is 6.2.2 Enterprise', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  assert.is(app.store.profile.id, '6.2.2-ee');
  assert.is((await api(app, 'GET', '/api/v5/status?format=json')).json().rel_vsn, 'e6.2.2');
  assert.is((await api(app, 'GET', '/api/v5/nodes', { token })).json()[0].version, '6.2.2');
  await app.close();
});

test('Community on 5.10.4 or 6.2.2 is refused with a sentence naming the releases that have it', async () => {
  for (const version of ['5.10.4', '6.2.2'] as const) {
    let message = '';
    try {
      await buildApp({ emqxVersion: version, edition: 'ce', dataDir: null, seed: 'empty' });
    } catch (err) {
      message = (err as Error).message;
    }
    assert.is(message, `EMQX ${version} ships one edition, Enterprise (from 5.9 on there is no Community build); --edition ce goes with 5.5.1 or 5.8.9.`);
  }
  assert.throws(() => parseProfile('5.9.0', 'ee'), /EMQX 5\.9\.0 is not a release the simulator can be; choose one of 5\.5\.1, 5\.8\.9, 5\.10\.4, 6\.2\.2\./);
});

test('the command line: --emqx-version 5.5.1 --edition ce is 5.5.1 Community; --edition ce alone exits 2 with the sentence', async () => {
  const ce = await spawnSimulator(['--emqx-version', '5.5.1', '--edition', 'ce', '--seed', 'empty']);
  try {
    const status = await request(ce.baseUrl, 'GET', '/api/v5/status?format=json');
    assert.is(status.json.rel_vsn, 'v5.5.1');
  } finally {
    await ce.kill();
  }
  let failure = '';
  await spawnSimulator(['--edition', 'ce']).then(async (sim) => sim.kill(), (err: Error) => {
    failure = err.message;
  });
  assert.match(failure, 'exited with 2');
  assert.match(failure, '--edition: EMQX 6.2.2 ships one edition, Enterprise (from 5.9 on there is no Community build); --edition ce goes with 5.5.1 or 5.8.9.');
});

test('routes a release lacks answer 404: /configs/limiter is gone from 5.10, /bridges_probe from 6.x', async () => {
  const expected: Record<string, [number, number]> = { '5.5.1-ee': [200, 400], '5.8.9-ee': [200, 400], '5.10.4-ee': [404, 400], '6.2.2-ee': [404, 404] };
  for (const [id, [limiter, probe]] of Object.entries(expected)) {
    const [version, edition] = id.split('-') as ['5.5.1', 'ee'];
    const app = await buildTestApp({ emqxVersion: version, edition });
    const token = await login(app);
    assert.is((await api(app, 'GET', '/api/v5/configs/limiter', { token })).statusCode, limiter, `limiter on ${id}`);
    const res = await api(app, 'POST', '/api/v5/bridges_probe', { token, body: { type: 'nothing', name: 'x' } });
    assert.is(res.statusCode, probe, `bridges_probe on ${id}`);
    await app.close();
  }
});

test.run();
