// Configuration history (issue #35, acceptance 2): a listener setting and an authorization rule
// changed in the console with "Snapshot first" leave two snapshots; the first compared with now
// shows exactly those two changes, the two snapshots differ by the listener change alone, and
// restoring the first brings both back. Both roots are saved once beforehand, as on any broker
// that has run for a while: cluster.hocon holds only the roots that were ever changed, so a
// first-ever change shows as a whole root added.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openConsole, type ConsoleSession } from '../helpers/browser.ts';
import { login, request } from '../helpers/simulator.ts';

let s: ConsoleSession;
let token: string;
const api = async (method: string, path: string, body?: unknown) => {
  const res = await request(s.sim.baseUrl, method, `/api/v5${path}`, { token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json as any;
};
const RULE = '{deny, {username, "sensor-9"}, publish, ["x/#"]}.';

test.before(async () => {
  s = await openConsole(['--seed', 'empty', '--emqx-version', '5.8.9']);
  token = await login(s.sim.baseUrl);
  // The GET answer less what the update's schema lacks (`name`; emqx_mgmt_api_listeners.erl).
  const { name: _name, running: _running, current_connections: _count, ...listener } = await api('GET', '/listeners/tcp:default');
  await api('PUT', '/listeners/tcp:default', listener);
  const file = await api('GET', '/authorization/sources/file');
  await api('PUT', '/authorization/sources/file', file);
});

test.after(async () => {
  await s?.close();
});

test('two changes with "Snapshot first" leave two snapshots; the diff shows exactly them; restoring the first brings both back', async () => {
  const { page } = s.w;
  const base = s.sim.baseUrl;
  const before = { acceptors: (await api('GET', '/listeners/tcp:default')).acceptors, rules: (await api('GET', '/authorization/sources/file')).rules };

  // A listener setting, saved with the box checked as it comes.
  await page.goto(`${base}/#/listener/detail/${encodeURIComponent('tcp:default')}`);
  const listener = '[data-test=config-listener-form]';
  await page.waitForSelector(`${listener} [name=acceptors]`);
  assert.ok(await page.isChecked(`${listener} [data-test=snapshot-first]`), 'Snapshot first is on by default');
  await page.fill(`${listener} [name=acceptors]`, '8');
  await page.click(`${listener} [data-test=form-submit]`);
  await page.click('[data-test=confirm-ok]');
  await page.waitForSelector('[data-test=toast-success]');
  assert.is((await api('GET', '/listeners/tcp:default')).acceptors, 8);

  // An authorization rule of the ACL file.
  await page.goto(`${base}/#/authorization/detail/file?tab=settings`);
  const authz = '[data-test=authz-settings-form]';
  await page.waitForSelector(`${authz} [name=rules]`);
  const rules = await page.inputValue(`${authz} [name=rules]`);
  await page.fill(`${authz} [name=rules]`, `${RULE}\n${rules}`);
  await page.click(`${authz} [data-test=form-submit]`);
  await page.waitForSelector('[data-test=toast-success]');
  assert.match((await api('GET', '/authorization/sources/file')).rules, /sensor-9/);

  // Two snapshots, newest first.
  await page.goto(`${base}/#/config-history`);
  await page.waitForSelector('[data-test=history-row]');
  const keys = await page.$$eval('[data-test=history-row]', (rows) => rows.map((r) => r.getAttribute('data-key')!));
  assert.is(keys.length, 2);
  const [second, first] = keys;

  // The first against now: exactly the two changes.
  await page.click(`[data-test=history-row][data-key="${first}"] [data-test=history-compare-now]`);
  await page.waitForSelector('[data-test=history-diff-drawer] [data-test=history-change], [data-test=history-diff-drawer] [data-test=history-no-diff]');
  const paths = async (drawer: string) => page.$$eval(`[data-test=${drawer}] [data-test=history-change]`, (els) => els.map((e) => `${e.getAttribute('data-path')} ${e.getAttribute('data-kind')}`));
  assert.equal((await paths('history-diff-drawer')).sort(), ['authorization.sources.file.rules changed', 'listeners.tcp.default.acceptors changed']);
  assert.match(await page.textContent('[data-test=history-diff-drawer]') ?? '', /sensor-9/);
  await page.keyboard.press('Escape');

  // The two snapshots differ by the listener change alone.
  await page.check(`[data-test=history-row][data-key="${first}"] input[type=checkbox]`);
  await page.check(`[data-test=history-row][data-key="${second}"] input[type=checkbox]`);
  await page.click('[data-test=history-compare]');
  await page.waitForSelector('[data-test=history-diff-drawer] [data-test=history-change]');
  assert.equal(await paths('history-diff-drawer'), ['listeners.tcp.default.acceptors changed']);
  await page.keyboard.press('Escape');

  // Restore the first: the confirmation is the diff it applies; both come back.
  await page.click(`[data-test=history-row][data-key="${first}"] [data-test=history-restore]`);
  await page.waitForSelector('[data-test=history-restore-drawer] [data-test=history-change]');
  assert.equal((await paths('history-restore-drawer')).sort(), ['authorization.sources.file.rules changed', 'listeners.tcp.default.acceptors changed']);
  await page.click('[data-test=history-restore-confirm]');
  await page.waitForSelector('[data-test=history-restore-drawer]', { state: 'detached' });
  assert.is((await api('GET', '/listeners/tcp:default')).acceptors, before.acceptors);
  assert.is((await api('GET', '/authorization/sources/file')).rules, before.rules);
  assert.equal(s.w.errors, []);
});

test.run();
