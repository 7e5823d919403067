// security.md S11: no state change through GET. Every GET route of the table, on every release
// and edition, leaves the persisted state as it was, whatever its path segments say.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EDITIONS, VERSIONS } from '../../simulator/store/profile.ts';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

test('S11: every GET route leaves the persisted state unchanged, on 5.5.1 and 5.8.9, ee and ce', async () => {
  const changed: string[] = [];
  let asked = 0;
  for (const emqxVersion of VERSIONS.filter((v) => v === '5.5.1' || v === '5.8.9')) {
    for (const edition of EDITIONS.filter((e) => e === 'ee' || e === 'ce')) {
      const app = await buildTestApp({ seed: 'demo', emqxVersion, edition, loginRateLimit: { max: 1_000_000 } });
      const token = await login(app);
      await app.ready();
      for (const route of app.apiRoutes) {
        if (route.method !== 'GET' || !route.url.startsWith('/api/v5/')) continue;
        for (const segment of ['x', 'emqx@node1', '..']) {
          const before = JSON.stringify(app.store.state);
          await api(app, 'GET', route.url.replace(/:(\w+)/g, encodeURIComponent(segment)), { token });
          asked++;
          if (JSON.stringify(app.store.state) !== before) changed.push(`${emqxVersion} ${edition}: GET ${route.url} (${segment})`);
        }
      }
      await app.close();
    }
  }
  assert.ok(asked > 400, `only ${asked} GETs`);
  assert.equal(changed, []);
});

test.run();
