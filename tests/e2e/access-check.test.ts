// Access check on every profile the simulator knows (issue #35, acceptance 1): with a built-in
// database rule denying sensor-2 publish on secret/#, the check says publish is denied and names
// that rule, and allows sensor-3; a wrong password reads as an authentication failure; nothing
// is published until the operator confirms; the ID of a connected client is asked about first;
// the check's trace is gone afterwards. One browser for the file, one simulator per profile.
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { SENSOR_PASSWORD, setUpAccessScenario, simulatorProfiles } from '../helpers/access-scenario.ts';
import { launch, loginAsAdmin, openPage, type WatchedPage } from '../helpers/browser.ts';
import { connectMqtt, endMqtt, login, request, spawnSimulator, waitFor, type SpawnedSimulator } from '../helpers/simulator.ts';

let browser: Browser;

test.before(async () => {
  browser = await launch();
});

test.after(async () => {
  await browser?.close();
});

async function check(w: WatchedPage, sim: SpawnedSimulator, input: { clientid: string; password: string; publish: boolean }): Promise<void> {
  const { page } = w;
  await page.goto(`${sim.baseUrl}/#/access-check`);
  await page.waitForSelector('[data-test=access-check-form]');
  await page.fill('[data-test=access-check-form] input[name=clientid]', input.clientid);
  await page.fill('[data-test=access-check-form] input[name=username]', input.clientid);
  await page.fill('[data-test=access-check-form] input[name=password]', input.password);
  await page.fill('[data-test=access-check-form] input[name=topic]', 'secret/a');
  await page.setChecked('[data-test=access-check-form] input[name=publish]', input.publish);
  await page.click('[data-test=access-check-form] [data-test=form-submit]');
}

let runs = 0;
/** Waits for the result of the next check. */
const result = (w: WatchedPage) => w.page.waitForSelector(`[data-test=access-check-result][data-run="${++runs}"]`, { timeout: 15_000 });
const sentence = async (w: WatchedPage, step: string) => (await w.page.textContent(`[data-test=access-check-${step}]`))?.trim() ?? '';

for (const { emqxVersion, edition } of simulatorProfiles()) {
  test(`${emqxVersion} ${edition}: denied publish names the built-in database rule, sensor-3 is allowed, a wrong password fails authentication, nothing is sent unasked, the trace is gone`, async () => {
    const sim = await spawnSimulator(['--seed', 'empty', '--emqx-version', emqxVersion, '--edition', edition]);
    const w = await openPage(browser);
    runs = 0;
    let watcher: MqttClient | undefined;
    try {
      const token = await login(sim.baseUrl);
      await setUpAccessScenario(sim.baseUrl, token);
      // What reaches subscribers of secret/# (sensor-3 may subscribe there: the file source allows all).
      watcher = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'watcher', username: 'sensor-3', password: SENSOR_PASSWORD });
      const received: string[] = [];
      watcher.on('message', (_topic, payload) => received.push(payload.toString()));
      await new Promise((resolve) => watcher!.subscribe('secret/#', { qos: 1 }, resolve));
      await loginAsAdmin(w.page, sim.baseUrl);

      // Publish asks first; cancelling sends nothing and runs nothing.
      await check(w, sim, { clientid: 'sensor-2', password: SENSOR_PASSWORD, publish: true });
      await w.page.waitForSelector('[data-test=confirm-dialog]');
      assert.match(await w.page.textContent('[data-test=confirm-dialog]') ?? '', /real QoS 1 message/);
      await w.page.click('[data-test=confirm-cancel]');
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(received, []);
      assert.not.ok(await w.page.$('[data-test=access-check-result]'));

      // Confirmed: sensor-2's publish is denied by the rule, its subscribe allowed by the file.
      await w.page.click('[data-test=access-check-form] [data-test=form-submit]');
      await w.page.click('[data-test=confirm-ok]');
      await result(w);
      assert.match(await sentence(w, 'connect'), /authentication passed \(password_based:built_in_database\)/);
      assert.match(await sentence(w, 'subscribe'), /Subscribe secret\/a: allowed by the ACL file/);
      assert.is(await sentence(w, 'publish'), "✗ Publish secret/a: denied by built-in database rule 'deny publish secret/#' for username sensor-2");
      assert.match(await w.page.textContent('[data-test=access-check-codes]') ?? '', /publish 0x87/);
      assert.match(await w.page.textContent('[data-test=access-check-lines]') ?? '', /authorization_permission_denied.*source: built_in_database/);
      assert.equal(received, [], 'a denied publish reaches nobody');

      // sensor-3: allowed, and the real message arrives.
      await check(w, sim, { clientid: 'sensor-3', password: SENSOR_PASSWORD, publish: true });
      await w.page.click('[data-test=confirm-ok]');
      await result(w);
      assert.match(await sentence(w, 'publish'), /Publish secret\/a: allowed by the ACL file/);
      await waitFor(() => received.length === 1, 3000, 'the confirmed message');
      assert.equal(received, ['access check']);

      // A wrong password: an authentication failure naming the authenticator.
      await check(w, sim, { clientid: 'sensor-2', password: 'not-the-password', publish: false });
      await result(w);
      assert.match(await sentence(w, 'connect'), /authentication failed, bad username or password \(password_based:built_in_database\)/);

      // A connected client's ID: the check would take its place, so it asks; cancelled, the client stays.
      if (emqxVersion === simulatorProfiles()[0].emqxVersion && edition === simulatorProfiles()[0].edition) {
        await check(w, sim, { clientid: 'watcher', password: SENSOR_PASSWORD, publish: false });
        await w.page.waitForSelector('[data-test=confirm-dialog]');
        assert.match(await w.page.textContent('[data-test=confirm-dialog]') ?? '', /watcher is connected now\. The check connects with the same client ID/);
        await w.page.click('[data-test=confirm-cancel]');
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.ok(watcher.connected, 'the connected client is left alone');
        assert.is(await w.page.getAttribute('[data-test=access-check-result]', 'data-run'), String(runs), 'no new check ran');
      }

      // Every check deleted its trace.
      const traces = (await request(sim.baseUrl, 'GET', '/api/v5/trace', { token })).json as { name: string }[];
      assert.equal(traces.map((tr) => tr.name), []);
      assert.equal(w.errors, []);
      assert.equal(w.violations, []);
    } finally {
      if (watcher) await endMqtt(watcher);
      await w.context.close();
      await sim.kill();
    }
  });
}

test.run();
