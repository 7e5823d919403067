// The MQTT fuzzer (security.md M5, issue 33 acceptance 2): a simulator in a child process takes
// generated sessions (tests/helpers/mqtt-fuzz.ts) for MQTT_FUZZ_SECONDS (default 60) per protocol
// level, 3.1.1 then 5, TCP and WebSocket interleaved, several at a time; meanwhile /status is
// polled and must answer every time (within 5 s). Afterwards the process has not exited, serves a
// fresh client, logged no fault, unhandled rejection or exception, and its RSS grew by less than
// 100 MB (after a 10 s warm-up). The seed is printed with the figures; MQTT_FUZZ_SEED replays a run.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectMqtt, endMqtt, login, request, spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';
import { emptyStats, random, runSession, type FuzzStats } from '../helpers/mqtt-fuzz.ts';

const SECONDS = Number(process.env.MQTT_FUZZ_SECONDS ?? 60);
// MQTT_FUZZ_SEED=S replays both levels of a run whose names said seeds S + 4 and S + 5.
const SEED = Number(process.env.MQTT_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CONCURRENT = 4;
const RSS_BOUND_KB = 100 * 1024;

let sim: SpawnedSimulator;

test.before(async () => {
  sim = await spawnSimulator(['--seed', 'empty']);
  const token = await login(sim.baseUrl);
  // Hooks with something to do on the fuzzed topics: a rewrite, a rule, a deny rule, a topic metric.
  const call = (method: string, path: string, body: unknown) => request(sim.baseUrl, method, `/api/v5${path}`, { token, body });
  await call('PUT', '/mqtt/topic_rewrite', [{ action: 'all', source_topic: 'fz/a/#', re: '^fz/a/(.+)$', dest_topic: 'fz/b/$1' }]);
  await call('POST', '/rules', { id: 'fuzz_rule', sql: 'SELECT payload, topic FROM "fz/#" WHERE qos = 2', actions: [{ function: 'console' }], enable: true });
  await call('POST', '/mqtt/topic_metrics', { topic: 'fz/a' });
  await call('POST', '/authorization/sources', { type: 'built_in_database', enable: true });
  await call('POST', '/authorization/sources/built_in_database/rules/all', { rules: [{ permission: 'deny', action: 'all', topic: 'fz/secret/#' }] });
  // What sessions may keep by the zone's leave (a persistent session's queue, for 2 h by default)
  // ends within the run: RSS then measures what the broker holds beyond its configured limits.
  await call('PUT', '/configs/global_zone', { mqtt: { session_expiry_interval: '10s', max_mqueue_len: 100 } });
  // A fresh process grows to its working set (compiled code, the heap's first sizes) in the first
  // seconds of traffic; the RSS bound is on what the runs add after that.
  await fuzz(5, SEED, 10);
  await fuzz(4, SEED, 10);
});

test.after(async () => {
  await sim.kill();
});

function rssKb(): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${sim.child.pid}/status`, 'utf8'))?.[1] ?? 0);
}

/**
 * The RSS once traffic has stopped: the least of 8 s of samples. Right after a flood the process
 * still holds what it allocated for it (V8 gives heap pages back in its idle collections, the
 * allocator keeps freed buffers a while); what stays is what it keeps.
 */
async function settledRssKb(): Promise<number> {
  let least = rssKb();
  for (let i = 0; i < 16; i++) {
    await new Promise((r) => setTimeout(r, 500));
    least = Math.min(least, rssKb());
  }
  return least;
}

let baseline = 0;

/** One GET /status: its latency in ms, or -1 when it did not answer 200 within 5 s (a busy CI machine). */
function status(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.get(`${sim.baseUrl}/status`, { agent: false, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - started : -1));
    });
    req.on('timeout', () => {
      req.destroy();
      resolve(-1);
    });
    req.on('error', () => resolve(-1));
  });
}

const problems = () => sim.stderr().split('\n').filter((line) => /fault in its packet handling|unhandled rejection|uncaught exception|failed/.test(line));

async function fuzz(version: 4 | 5, seed: number, seconds = SECONDS): Promise<{ stats: FuzzStats; polls: number; slowest: number; failed: number; rss: [number, number] }> {
  const rng = random(seed);
  const stats = emptyStats();
  const deadline = Date.now() + seconds * 1000;
  let polls = 0;
  let failed = 0;
  let slowest = 0;
  const poller = (async () => {
    while (Date.now() < deadline) {
      const ms = await status();
      polls++;
      if (ms < 0) failed++;
      else slowest = Math.max(slowest, ms);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  let next = 0;
  const worker = async () => {
    while (Date.now() < deadline && sim.child.exitCode === null) await runSession(sim, rng, version, next++, stats);
  };
  await Promise.all([poller, ...Array.from({ length: CONCURRENT }, worker)]);
  const before = baseline;
  baseline = await settledRssKb();
  return { stats, polls, slowest, failed, rss: [before, baseline] };
}

for (const version of [4, 5] as const) {
  const seed = SEED + version;
  test(`MQTT ${version === 5 ? '5' : '3.1.1'}: ${SECONDS} s of generated sessions over TCP and WebSocket, and the process serves on (seed ${seed})`, async () => {
    const run = await fuzz(version, seed);
    const grown = run.rss[1] - run.rss[0];
    const line = `mqtt fuzz ${version === 5 ? '5' : '3.1.1'} seed ${seed}: ${run.stats.sessions} sessions (tcp ${run.stats.transports.tcp}, ws ${run.stats.transports.ws}), `
      + `${run.stats.packets} packets, ${(run.stats.bytes / 1e6).toFixed(1)} MB; shapes ${JSON.stringify(run.stats.shapes)}; `
      + `/status ${run.polls} polls, ${run.failed} unanswered, slowest ${run.slowest.toFixed(0)} ms; RSS ${(run.rss[0] / 1024).toFixed(0)} → ${(run.rss[1] / 1024).toFixed(0)} MB`;
    console.log(line);
    assert.ok(sim.child.exitCode === null && sim.child.signalCode === null, `the process exited (${line}):\n${sim.stderr()}`);
    assert.is(run.failed, 0, `/status went unanswered (${line})`);
    assert.ok(run.stats.sessions > 50, line);
    assert.ok(grown < RSS_BOUND_KB, `RSS grew by ${(grown / 1024).toFixed(0)} MB (${line})`);
    assert.equal(problems(), [], `faults logged (${line})`);
    const fresh = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: `after-fuzz-${version}`, protocolVersion: version });
    const got = new Promise<string>((resolve) => fresh.once('message', (_t, payload) => resolve(payload.toString())));
    await fresh.subscribeAsync('after/fuzz', { qos: 1 });
    await fresh.publishAsync('after/fuzz', 'still here', { qos: 1 });
    assert.is(await got, 'still here', `a fresh client is served (${line})`);
    await endMqtt(fresh);
  });
}

test.run();
