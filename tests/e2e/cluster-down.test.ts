// A simulated node that is down (security.md D3), seen in the console: the overview and the nodes
// list show it stopped, and neither shows an error state.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openConsole, type ConsoleSession } from '../helpers/browser.ts';

let s: ConsoleSession;

test.before(async () => {
  s = await openConsole(['--seed', 'demo', '--nodes', '3', '--down-node', 'emqx@node2']);
});

test.after(async () => {
  await s?.close();
});

test('the overview and the nodes list show the down node as stopped, without an error page', async () => {
  const page = s.w.page;
  await page.goto(`${s.sim.baseUrl}/#/dashboard/overview`);
  const down = page.locator('[data-test=overview-node][data-key="emqx@node2"]');
  await down.waitFor();
  assert.match(await down.innerText(), /Stopped/);
  assert.match(await page.locator('[data-test=overview-node][data-key="emqx@node3"]').innerText(), /Running/);
  assert.match(await page.locator('[data-test=overview-nodes]').innerText(), /2 running of 3/);
  await page.locator('[data-test=chart-connections]').waitFor();
  assert.is(await page.locator('[data-test=state-error]').count(), 0);

  await page.goto(`${s.sim.baseUrl}/#/dashboard/nodes`);
  const row = page.locator('[data-test=nodes-row][data-key="emqx@node2"]');
  await row.waitFor();
  assert.match(await row.innerText(), /Stopped/);
  assert.is(await page.locator('[data-test=state-error]').count(), 0);
  assert.equal(s.w.errors, []);
});

test.run();
