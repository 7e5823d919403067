// Access control journey in Chromium against the spawned simulator (issue #4 acceptance 2): a
// built-in database authenticator and a user created in the console decide real MQTT CONNECTs,
// and the detail page's success/failed counters follow those decisions.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openConsole, waitUntil, type ConsoleSession, type WatchedPage } from '../helpers/browser.ts';
import { connectMqtt, endMqtt, login, request, type SpawnedSimulator } from '../helpers/simulator.ts';

let sim: SpawnedSimulator;
let w: WatchedPage;

let session: ConsoleSession | undefined;

test.before(async () => {
  session = await openConsole();
  ({ sim, w } = session);
});

test.after(() => session?.close());

/** Resolves with the CONNACK outcome: 'accepted' or the error's return code. */
async function attempt(username?: string, password?: string): Promise<string> {
  try {
    const client = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: `e2e-${Math.random().toString(36).slice(2, 8)}`, username, password });
    await endMqtt(client);
    return 'accepted';
  } catch (error) {
    return String((error as { code?: number }).code ?? (error as Error).message);
  }
}

test('enabling a users-less authenticator with 20 clients connected without credentials warns with the number 20 before anything changes', async () => {
  const { page } = w;
  const anonymous = await Promise.all(Array.from({ length: 20 }, (_, i) => connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: `anon-${i}` })));
  const named = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'named-1', username: 'meter' });
  const token = await login(sim.baseUrl);
  const chain = async () => (await request(sim.baseUrl, 'GET', '/api/v5/authentication', { token })).json as unknown[];
  try {
    await page.goto(`${sim.baseUrl}/#/authentication/create`);
    await page.click('[data-test=wizard-next]');
    await page.click('[data-test=choice-built_in_database]');
    await page.click('[data-test=wizard-next]');
    await page.click('[data-test=authn-config-form] [data-test=form-submit]');
    const question = await page.waitForSelector('[data-test=confirm-dialog]');
    assert.match(await question.textContent() ?? '', /^20 connected clients have no username: .*It has no users yet, so it refuses every client\./);
    assert.equal(await chain(), [], 'nothing changed while the question is open');
    await page.click('[data-test=confirm-cancel]');
    assert.equal(await chain(), []);
    assert.is(await attempt(), 'accepted', 'clients without credentials still get in');
    await page.click('[data-test=authn-config-form] [data-test=form-submit]');
    await page.click('[data-test=confirm-ok]');
    await page.getByText('Authenticator created', { exact: true }).waitFor();
    assert.is((await chain()).length, 1);
    assert.is.not(await attempt(), 'accepted', 'what the warning said: refused');
  } finally {
    await Promise.all([...anonymous, named].map(endMqtt));
    for (const a of await chain() as { id: string }[]) await request(sim.baseUrl, 'DELETE', `/api/v5/authentication/${encodeURIComponent(a.id)}`, { token });
    // Away from the list, so the next journey finds it read anew.
    await page.goto(`${sim.baseUrl}/#/dashboard/overview`);
  }
});

test('an authenticator and a user made in the console decide MQTT logins, and the counters show it', async () => {
  const { page } = w;
  await page.goto(`${sim.baseUrl}/#/authentication`);
  await page.waitForSelector('[data-test=authentication-page] [data-test=state-empty]');
  await page.click('[data-test=authentication-create]');
  await page.waitForSelector('[data-test=choice-password_based]');
  await page.click('[data-test=wizard-next]');
  await page.click('[data-test=choice-built_in_database]');
  await page.click('[data-test=wizard-next]');
  await page.waitForSelector('[data-test=authn-config-form]');
  assert.is(await page.inputValue('[data-test=authn-config-form] [name="password_hash_algorithm.salt_position"]'), 'suffix');
  await page.click('[data-test=authn-config-form] [data-test=form-submit]');
  // It has no users yet: Create asks first (the test above).
  await page.click('[data-test=confirm-ok]');
  await page.getByText('Authenticator created', { exact: true }).waitFor();

  const row = '[data-test=authentication-row][data-key="password_based:built_in_database"]';
  await page.waitForSelector(`${row} [data-test=authentication-status]`);
  await page.click(`${row} a`);
  await page.waitForSelector('[data-test=authn-detail-page] [data-test=metric-total]');
  await page.click('[data-test=tab-users]');
  await page.click('[data-test=authn-users-create]');
  await page.fill('[data-test=authn-users-create-form] [name=user_id]', 'e2e-user');
  await page.fill('[data-test=authn-users-create-form] [name=password]', 'right-pass');
  await page.click('[data-test=authn-users-create-form] [data-test=form-submit]');
  await page.waitForSelector('[data-test=authn-users-row][data-key=e2e-user]');

  assert.is(await attempt('e2e-user', 'right-pass'), 'accepted');
  assert.is(await attempt('e2e-user', 'wrong-pass'), '4', 'CONNACK 4: bad username or password');
  assert.is(await attempt('e2e-user', 'wrong-again'), '4');

  await page.click('[data-test=tab-overview]');
  // The overview polls every 5 s; wait for the counts the three attempts produced.
  // A string, not a function: tsx would wrap a function with helpers the page does not have.
  await waitUntil(page, `(() => {
    const n = (name) => document.querySelector('[data-test=metric-' + name + '] strong')?.textContent?.replace(/\\D/g, '');
    return n('success') === '1' && n('failed') === '2' && n('total') === '3';
  })()`, 12000);
  assert.match(await page.textContent('[data-test=node-metrics]') ?? '', /Connected/);
  // The last-minute rate trend appears once two samples were taken.
  await page.waitForSelector('[data-test=rate-trend]', { timeout: 12000 });
  assert.equal(w.errors, []);
  assert.equal(w.violations, []);
});

test.run();
