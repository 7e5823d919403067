// The config roots (GET/PUT /configs/{sys_topics,log,dashboard,alarm,sysmon,limiter}): EMQX's
// defaults, merge semantics, `******` secrets kept, 400 UPDATE_FAILED naming the path for wrong
// type, range, enum, duration and byte-size syntax, persistence; the log level changes what the
// simulator logs; and the cluster's invite / force-leave on the simulated nodes.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

let app: FastifyInstance;
let token = '';

test.before.each(async () => {
  app = await buildTestApp({ emqxVersion: '5.5.1', nodes: 3 });
  token = await login(app);
});

test.after.each(async () => {
  await app.close();
});

const call = (method: 'GET' | 'PUT' | 'DELETE', url: string, body?: unknown) => api(app, method, `/api/v5${url}`, { token, body });
const problem = (res: { json(): { message: string } }) => JSON.parse(res.json().message) as { kind: string; path: string };

test('GET returns EMQX defaults for every root', async () => {
  assert.equal((await call('GET', '/configs/alarm')).json(), { actions: ['log', 'publish'], size_limit: 1000, validity_period: '24h' });
  const sysmon = (await call('GET', '/configs/sysmon')).json();
  assert.is(sysmon.vm.long_schedule, '240ms');
  assert.is(sysmon.os.sysmem_high_watermark, '70%');
  const log = (await call('GET', '/configs/log')).json();
  assert.is(log.console.level, 'warning');
  assert.is(log.file.rotation_size, '50MB');
  assert.is(log.file.enable, false);
  const dashboard = (await call('GET', '/configs/dashboard')).json();
  assert.is(dashboard.token_expired_time, '60m');
  assert.is(dashboard.default_password, '******');
  assert.equal((await call('GET', '/configs/limiter')).json(), {});
  const retainer = (await call('GET', '/mqtt/retainer')).json();
  assert.is(retainer.max_payload_size, '1MB');
  assert.is(retainer.backend.max_retained_messages, 0);
});

test('PUT merges into the current value and persists; GET shows the change', async () => {
  const res = await call('PUT', '/configs/alarm', { size_limit: 2000 });
  assert.is(res.statusCode, 200);
  assert.equal(res.json(), { actions: ['log', 'publish'], size_limit: 2000, validity_period: '24h' });
  assert.is((await call('PUT', '/configs/sysmon', { os: { cpu_high_watermark: '90%' } })).statusCode, 200);
  const sysmon = (await call('GET', '/configs/sysmon')).json();
  assert.is(sysmon.os.cpu_high_watermark, '90%');
  assert.is(sysmon.os.cpu_low_watermark, '60%');
  assert.is(app.store.state.config_roots?.alarm.size_limit, 2000);
});

test('secrets sent back as ****** are kept; changing the read-only default password is refused', async () => {
  const res = await call('PUT', '/configs/dashboard', { default_password: '******', token_expired_time: '30m' });
  assert.is(res.statusCode, 200);
  assert.is(res.json().default_password, '******');
  assert.is(app.store.configRoots.get('dashboard').default_password, 'public');
  const ro = await call('PUT', '/configs/dashboard', { default_password: 'changed' });
  assert.is(ro.statusCode, 403);
  assert.is(ro.json().code, 'UPDATE_FAILED');
});

// emqx_dashboard_swagger.erl check_request_body/5 checks the body under a root field named
// `root` and answers 400 BAD_REQUEST before the handler (whose own failures are UPDATE_FAILED).
test('wrong type, range, enum, duration and byte size are 400 BAD_REQUEST naming the root. path; nothing saved', async () => {
  const cases: [string, unknown, string][] = [
    ['/configs/alarm', { size_limit: 'many' }, 'size_limit'],
    ['/configs/alarm', { size_limit: 5000 }, 'size_limit'],
    ['/configs/log', { console: { level: 'loud' } }, 'console.level'],
    ['/configs/sysmon', { vm: { process_check_interval: '30 s x' } }, 'vm.process_check_interval'],
    ['/configs/sysmon', { vm: { large_heap: '32ZB' } }, 'vm.large_heap'],
    ['/configs/sys_topics', { sys_event_messages: { client_connected: 'yes' } }, 'sys_event_messages.client_connected'],
    ['/configs/limiter', { max_conn_rate: '10 per s' }, 'max_conn_rate'],
    // emqx_limiter_schema.erl fields(limiter): a name it lacks is an unknown field of the root.
    ['/configs/limiter', { 'bad-name': '10/s' }, ''],
  ];
  for (const [url, body, at] of cases) {
    const res = await call('PUT', url, body);
    assert.is(res.statusCode, 400, `${url} ${JSON.stringify(body)}`);
    assert.is(res.json().code, 'BAD_REQUEST');
    assert.is(problem(res).path, at ? `root.${at}` : 'root');
  }
  assert.equal(Object.keys(app.store.state.config_roots ?? {}), []);
  const ok = await call('PUT', '/configs/limiter', { max_conn_rate: '1000/s', messages_rate: '10/10s', bytes_rate: '10MB/s' });
  assert.is(ok.statusCode, 200);
  assert.equal(ok.json(), { max_conn_rate: '1000/s', messages_rate: '10/10s', bytes_rate: '10MB/s' });
});

test('changes survive a restart with --data-dir', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cfg-'));
  try {
    const first = await buildTestApp({ dataDir: dir });
    const t = await login(first);
    assert.is((await api(first, 'PUT', '/api/v5/configs/sys_topics', { token: t, body: { sys_msg_interval: '2m' } })).statusCode, 200);
    await first.close();
    const second = await buildTestApp({ dataDir: dir });
    const t2 = await login(second);
    assert.is((await api(second, 'GET', '/api/v5/configs/sys_topics', { token: t2 })).json().sys_msg_interval, '2m');
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the log level changes what the simulator logs', async () => {
  const lines: string[] = [];
  const stream = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
  const logged = await buildTestApp({ logger: { level: 'info', stream } });
  const t = await login(logged);
  const before = lines.length;
  await api(logged, 'GET', '/api/v5/configs/alarm', { token: t });
  assert.ok(lines.length > before, 'info requests are logged');
  const res = await api(logged, 'PUT', '/api/v5/configs/log', { token: t, body: { console: { enable: true, level: 'error' } } });
  assert.is(res.statusCode, 200);
  const quiet = lines.length;
  await api(logged, 'GET', '/api/v5/configs/alarm', { token: t });
  assert.is(lines.length, quiet, 'nothing below error is logged');
  await api(logged, 'PUT', '/api/v5/configs/log', { token: t, body: { console: { level: 'debug' } } });
  const again = lines.length;
  await api(logged, 'GET', '/api/v5/configs/alarm', { token: t });
  assert.ok(lines.length > again, 'debug logs requests again');
  await logged.close();
});

test('cluster: force-leave removes a node from /nodes, invite brings it back, with EMQX errors', async () => {
  assert.equal((await call('GET', '/cluster')).json(), { name: 'emqxcl', nodes: ['emqx@node1', 'emqx@node2', 'emqx@node3'], self: 'emqx@node1' });
  assert.equal((await call('DELETE', '/cluster/emqx@node1/force_leave')).json(), { code: 'BAD_REQUEST', message: "Can't leave self" });
  assert.is((await call('DELETE', '/cluster/emqx@node3/force_leave')).statusCode, 204);
  assert.equal((await call('GET', '/nodes')).json().map((n: { node: string }) => n.node), ['emqx@node1', 'emqx@node2']);
  assert.is((await call('GET', '/nodes/emqx@node3')).statusCode, 404);
  assert.equal((await call('PUT', '/cluster/emqx@node1/invite', {})).json(), { code: 'BAD_REQUEST', message: 'Cannot invite self' });
  assert.equal((await call('PUT', '/cluster/emqx@node3/invite', { timeout: 1000 })).json(), { code: 'BAD_REQUEST', message: 'timeout cannot be less than 5000ms' });
  assert.is((await call('PUT', '/cluster/emqx@nowhere/invite', {})).statusCode, 400);
  assert.is((await call('PUT', '/cluster/emqx@node3/invite', {})).statusCode, 200);
  assert.equal((await call('GET', '/nodes')).json().map((n: { node: string }) => n.node), ['emqx@node1', 'emqx@node2', 'emqx@node3']);
  const invitation = (await call('GET', '/cluster/invitation')).json();
  assert.equal(invitation.succeed.map((i: { node: string }) => i.node), ['emqx@node3']);
  assert.equal(invitation.failed.map((i: { node: string }) => i.node).sort(), ['emqx@node1', 'emqx@nowhere']);
  assert.equal(invitation.in_progress, []);
});

test.run();
