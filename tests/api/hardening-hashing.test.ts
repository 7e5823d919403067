// Issue #33, "password hashing runs on the event loop with no bound": PBKDF2 and bcrypt of the
// built-in-database authenticator run on worker threads, so adding a user or five wrong-password
// CONNECTs with an expensive hash leave /status answering promptly, each CONNECT waiting for its
// own hash; PBKDF2 settings beyond the simulator's bounds (dk_length = 1e8) are refused when the
// authenticator is written (security.md S20's stall measure, S8).
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_DK_LENGTH, MAX_PBKDF2_WORK } from '../../simulator/store/access/password-hash.ts';
import { connectMqtt, endMqtt, login, request, startSimulator, type RunningSimulator } from '../helpers/simulator.ts';
import { assertNoStall } from '../helpers/stall.ts';

const ID = 'password_based:built_in_database';
const PASSWORD = 'right-password';
// Each hash below takes about a second of a core: on the event loop it would hold /status that
// long; off it, /status answers within this (a worker still competes for the cores of a small
// machine, which the default 50 ms floor does not allow for).
const OFF_LOOP_FLOOR_MS = 300;
let sim: RunningSimulator;
let token = '';

test.before(async () => {
  sim = await startSimulator({ nodes: 1 });
  token = await login(sim.baseUrl);
});

test.after(async () => {
  await sim.close();
});

const call = (method: string, path: string, body?: unknown) => request(sim.baseUrl, method, `/api/v5${path}`, { token, body });
const authenticator = (password_hash_algorithm: unknown) => ({ mechanism: 'password_based', backend: 'built_in_database', user_id_type: 'username', password_hash_algorithm });

test('PBKDF2 past the bounds (dk_length 1e8, iterations × blocks over the cap) is a 400 at write time; nothing is created', async () => {
  for (const algo of [
    { name: 'pbkdf2', mac_fun: 'sha256', iterations: 1, dk_length: 100_000_000 },
    { name: 'pbkdf2', mac_fun: 'sha256', iterations: 1, dk_length: MAX_DK_LENGTH + 1 },
    { name: 'pbkdf2', mac_fun: 'sha256', iterations: MAX_PBKDF2_WORK + 1 },
    { name: 'pbkdf2', mac_fun: 'sha256', iterations: MAX_PBKDF2_WORK, dk_length: 64 },
  ]) {
    const res = await call('POST', '/authentication', authenticator(algo));
    assert.is(res.status, 400, `${JSON.stringify(algo)}: ${res.text}`);
    assert.match(res.json.message, /dk_length|iterations/);
  }
  assert.equal((await call('GET', '/authentication')).json, []);
});

test('adding a user and five wrong-password CONNECTs with an expensive PBKDF2 leave /status prompt; the right password still connects', async () => {
  // About a second of one core per hash here.
  const created = await call('POST', '/authentication', authenticator({ name: 'pbkdf2', mac_fun: 'sha256', iterations: 1_000_000 }));
  assert.is(created.status, 200, created.text);
  const added = await assertNoStall(sim.baseUrl, 'adding a PBKDF2 user', () => call('POST', `/authentication/${ID}/users`, { user_id: 'dev', password: PASSWORD }), OFF_LOOP_FLOOR_MS);
  assert.is(added.status, 201, added.text);

  const attempt = (password: string): Promise<number> => connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: `c-${Math.random()}`, username: 'dev', password, connectTimeout: 20_000 })
    .then(async (c: MqttClient) => { await endMqtt(c); return 0; }, (err: { code?: number }) => err.code ?? -1);
  const codes = await assertNoStall(sim.baseUrl, 'five wrong-password CONNECTs', () => Promise.all(Array.from({ length: 5 }, () => attempt('wrong-password'))), OFF_LOOP_FLOOR_MS);
  assert.equal(codes, [4, 4, 4, 4, 4], 'each wrong password is refused (CONNACK 4)');
  assert.is(await attempt(PASSWORD), 0, 'the right password connects');
  assert.is((await call('DELETE', `/authentication/${ID}`)).status, 204);
});

test('bcrypt users hash on the worker pool too: add, refuse a wrong password, accept the right one', async () => {
  assert.is((await call('POST', '/authentication', authenticator({ name: 'bcrypt', salt_rounds: 10 }))).status, 200);
  const added = await assertNoStall(sim.baseUrl, 'adding a bcrypt user', () => call('POST', `/authentication/${ID}/users`, { user_id: 'bc', password: PASSWORD }), OFF_LOOP_FLOOR_MS);
  assert.is(added.status, 201, added.text);
  const attempt = (password: string) => connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: `b-${Math.random()}`, username: 'bc', password })
    .then(async (c: MqttClient) => { await endMqtt(c); return 0; }, (err: { code?: number }) => err.code ?? -1);
  assert.is(await attempt('nope-nope'), 4);
  assert.is(await attempt(PASSWORD), 0);
  assert.is((await call('DELETE', `/authentication/${ID}`)).status, 204);
});

test.run();
