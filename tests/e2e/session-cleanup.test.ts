// Bulk session clean-up (issue #35, acceptance 3): 2,000 disconnected persistent sessions made
// with the load tool are removed by a client id filter at the set rate with progress; a reload
// goes on where it stopped, pause and cancel stop it, resuming finishes it; a connected client that
// matches the filter and a session outside it are untouched.
import { spawn } from 'node:child_process';
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openConsole, type ConsoleSession } from '../helpers/browser.ts';
import { connectMqtt, endMqtt, login, REPO_ROOT, request, waitFor } from '../helpers/simulator.ts';

let s: ConsoleSession;
let token: string;
let live: MqttClient;
// Faster than the default of 50/s to keep the test short; the machine may run slower, never faster.
const RATE = 100;

/** Stale sessions left; a fuzzy filter gives no count (as in EMQX), so they are counted from one big page. */
const stale = async () => (await clients('conn_state=disconnected&like_clientid=stale-&limit=10000')).data.length;
const clients = async (query: string) => (await request(s.sim.baseUrl, 'GET', `/api/v5/clients?${query}`, { token })).json as { data: { clientid: string; connected: boolean }[]; meta: { count: number } };

test.before(async () => {
  s = await openConsole(['--seed', 'empty']);
  token = await login(s.sim.baseUrl);
  const made = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx/esm', 'tests/bench/load.ts', '--sessions', '2000', '--prefix', 'stale-', '--port', String(s.sim.mqtt)], { cwd: REPO_ROOT, stdio: 'ignore' });
    child.once('exit', (code) => resolve(code ?? 1));
  });
  assert.is(made, 0, 'the load tool made its sessions');
  // Outside the filter: a disconnected persistent session; inside it but connected: a live client.
  await endMqtt(await connectMqtt(`mqtt://127.0.0.1:${s.sim.mqtt}`, { clientId: 'keep-1', clean: false }));
  live = await connectMqtt(`mqtt://127.0.0.1:${s.sim.mqtt}`, { clientId: 'stale-live', clean: false });
});

test.after(async () => {
  if (live) await endMqtt(live);
  await s?.close();
});

const counts = async () => {
  const el = await s.w.page.$('[data-test=cleanup-job]');
  const text = (await s.w.page.textContent('[data-test=cleanup-counts]')) ?? '';
  return { state: await el?.getAttribute('data-state'), done: Number(/^(\d+)/.exec(text)?.[1] ?? 0), text };
};

/** After the removals in flight have finished, neither the progress nor the broker moves; the sessions left. */
async function still(): Promise<number> {
  await new Promise((r) => setTimeout(r, 500));
  const done = (await counts()).done;
  const left = await stale();
  await new Promise((r) => setTimeout(r, 1000));
  assert.is((await counts()).done, done);
  assert.is(await stale(), left);
  return left;
}

test('2,000 stale sessions go at the set rate with progress; pause holds, reload resumes, cancel stops, resume finishes; the rest is untouched', async () => {
  const { page } = s.w;
  assert.is((await stale()), 2000);
  await page.goto(`${s.sim.baseUrl}/#/clients?cleanup=1`);
  const form = '[data-test=cleanup-form]';
  await page.waitForSelector(`${form} [name=like_clientid]`);
  await page.fill(`${form} [name=like_clientid]`, 'stale-');
  assert.is(await page.inputValue(`${form} [name=rate]`), '50', 'the default rate');
  await page.fill(`${form} [name=rate]`, String(RATE));
  await page.click(`${form} [data-test=form-submit]`);
  await page.waitForSelector('[data-test=confirm-dialog]');
  assert.match(await page.textContent('[data-test=confirm-dialog]') ?? '', new RegExp(`Remove 2000 disconnected sessions \\(${RATE} per second\\)`));
  await page.click('[data-test=confirm-ok]');
  await page.waitForSelector('[data-test=cleanup-progress]');

  // The rate holds: over two seconds of work, no more than the set rate (10 % slack for timers).
  await waitFor(async () => (await counts()).done > 20, 10_000, 'work to start');
  const a = { ...(await counts()), at: Date.now() };
  await new Promise((r) => setTimeout(r, 2000));
  const b = { ...(await counts()), at: Date.now() };
  const rate = ((b.done - a.done) * 1000) / (b.at - a.at);
  assert.ok(rate <= RATE * 1.1, `rate ${rate.toFixed(0)}/s over ${RATE}/s`);
  assert.ok(rate >= RATE / 5, `rate ${rate.toFixed(0)}/s is far below ${RATE}/s`);
  assert.is(await page.getAttribute('[data-test=cleanup-progress]', 'max'), '2000');
  assert.ok(Number(await page.getAttribute('[data-test=cleanup-progress]', 'value')) >= b.done);

  // Resume at once after pause (removals still in flight) goes on; pause holds it.
  await page.click('[data-test=cleanup-pause]');
  await page.click('[data-test=cleanup-resume]');
  const resumedAt = (await counts()).done;
  await waitFor(async () => (await counts()).done > resumedAt + 20, 10_000, 'the job to go on after an immediate resume');
  await page.click('[data-test=cleanup-pause]');
  await waitFor(async () => (await counts()).state === 'paused', 3000, 'paused');
  await still();
  await page.click('[data-test=cleanup-resume]');

  // A reload goes on from where it stopped, not from the start.
  const beforeReload = (await counts()).done;
  await page.reload();
  await page.waitForSelector('[data-test=cleanup-job]');
  await waitFor(async () => (await counts()).done > beforeReload + 20, 10_000, 'the job to go on after the reload');
  assert.is((await counts()).state, 'running');
  assert.ok((await counts()).done < 2000, 'still work left for cancel');

  // Cancel stops it: nothing more is removed.
  await page.click('[data-test=cleanup-cancel]');
  await waitFor(async () => (await counts()).state === 'cancelled', 3000, 'cancelled');
  const left = await still();
  assert.ok(left > 0 && left < 2000, `${left} left after cancel`);

  // Resume finishes it; the report adds up.
  await page.click('[data-test=cleanup-resume]');
  await waitFor(async () => (await counts()).state === 'finished', 160_000, 'the job to finish');
  // Removals in flight at the reload are tried again after it and count as already gone.
  const report = /^2000 \/ 2000: removed (\d+), already gone (\d+), failed 0$/.exec((await counts()).text);
  assert.ok(report, `${(await counts()).text} ${await page.textContent('[data-test=cleanup-failed]').catch(() => '')}`);
  assert.is(Number(report![1]) + Number(report![2]), 2000);
  assert.ok(Number(report![2]) <= 8);
  assert.is((await stale()), 0);

  // Untouched: the connected client matching the filter, and the session outside it.
  const kept = (await clients('limit=100')).data.map((c) => `${c.clientid}:${c.connected}`).sort();
  assert.equal(kept, ['keep-1:false', 'stale-live:true']);
  assert.ok(live.connected);
  assert.equal(s.w.errors, []);
});

test.run();
