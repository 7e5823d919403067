// Crash safety of the configuration state (security.md D1): a child simulator gets a burst of
// configuration writes of several kinds and is killed with SIGKILL at a random moment, twenty
// times in a row on one data directory. After every restart each acknowledged write is there,
// each acknowledged delete stays deleted, and the state file is valid and loads without a
// corrupt or damaged report (a damaged state would refuse the start, security.md S24).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { login, request, spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';

const ROUNDS = 20;
const PASSWORD = 'Crash-safe-pass1';

/** What the acknowledged writes say the state must hold. */
interface Expected {
  users: Set<string>;
  deletedUsers: Set<string>;
  keys: Set<string>;
  topicMetrics: Set<string>;
  /** A replace-the-list write: the last acknowledged value, or one sent after it (in flight at the kill). */
  rewrite: { acked: string | null; later: string[] };
  autoSubscribe: { acked: string | null; later: string[] };
  /** How many writes were acknowledged in all. */
  acknowledged: number;
}

/** The state file (or, if the kill fell between its two renames, the previous one) is an intact envelope. */
function assertStateFileValid(dir: string, round: number): void {
  const current = path.join(dir, 'state.json');
  const file = existsSync(current) ? current : path.join(dir, 'state.prev.json');
  if (!existsSync(file)) return; // nothing acknowledged yet
  let envelope: { format?: string; sha256?: string; state?: unknown } = {};
  try {
    envelope = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    assert.unreachable(`round ${round}: ${path.basename(file)} is not valid JSON (${String(error)})`);
  }
  assert.type(envelope.sha256, 'string', `round ${round}: envelope without checksum`);
  assert.type(envelope.state, 'object', `round ${round}: envelope without state`);
}

async function verify(sim: SpawnedSimulator, token: string, expected: Expected, round: number): Promise<void> {
  const get = async (p: string) => {
    const res = await request(sim.baseUrl, 'GET', `/api/v5${p}`, { token });
    assert.is(res.status, 200, `round ${round}: GET ${p} answered ${res.status}`);
    return res.json;
  };
  const users = new Set((await get('/users')).map((u: { username: string }) => u.username));
  for (const name of expected.users) assert.ok(users.has(name), `round ${round}: user ${name} was acknowledged but is lost`);
  for (const name of expected.deletedUsers) assert.not.ok(users.has(name), `round ${round}: user ${name} was deleted but came back`);
  const keys = new Set((await get('/api_key')).map((k: { name: string }) => k.name));
  for (const name of expected.keys) assert.ok(keys.has(name), `round ${round}: API key ${name} was acknowledged but is lost`);
  const metrics = new Set((await get('/mqtt/topic_metrics')).map((m: { topic: string }) => m.topic));
  for (const topic of expected.topicMetrics) assert.ok(metrics.has(topic), `round ${round}: topic metric ${topic} was acknowledged but is lost`);
  const rewrite = (await get('/mqtt/topic_rewrite')).map((r: { source_topic: string }) => r.source_topic)[0] ?? null;
  if (expected.rewrite.acked) {
    assert.ok([expected.rewrite.acked, ...expected.rewrite.later].includes(rewrite),
      `round ${round}: topic rewrite is ${rewrite}, acknowledged ${expected.rewrite.acked}`);
  }
  const autoSub = (await get('/mqtt/auto_subscribe')).map((t: { topic: string }) => t.topic)[0] ?? null;
  if (expected.autoSubscribe.acked) {
    assert.ok([expected.autoSubscribe.acked, ...expected.autoSubscribe.later].includes(autoSub),
      `round ${round}: auto subscribe is ${autoSub}, acknowledged ${expected.autoSubscribe.acked}`);
  }
  // What was in flight at the kill is settled now: the value found is the new baseline.
  if (expected.rewrite.acked) expected.rewrite = { acked: rewrite, later: [] };
  if (expected.autoSubscribe.acked) expected.autoSubscribe = { acked: autoSub, later: [] };
}

/** Writes of every kind in parallel until the process dies; records what was acknowledged. */
async function burst(sim: SpawnedSimulator, token: string, expected: Expected, round: number, dead: () => boolean, onAck: () => void): Promise<void> {
  const send = async (method: string, p: string, body?: unknown) => {
    try {
      const res = await request(sim.baseUrl, method, `/api/v5${p}`, { token, body });
      return res.status;
    } catch {
      return 0; // the process died with the request open: not acknowledged
    }
  };
  const ok = (status: number) => {
    const acknowledged = status >= 200 && status < 300;
    if (acknowledged) {
      expected.acknowledged++;
      onAck();
    }
    return acknowledged;
  };
  const writers = [
    async () => {
      // Users: create, and delete one created in an earlier round.
      const earlier = [...expected.users].filter((u) => u.startsWith('crash_'));
      if (earlier.length) {
        const victim = earlier[Math.floor(Math.random() * earlier.length)];
        // Until the delete is acknowledged the user may or may not be there.
        expected.users.delete(victim);
        if (ok(await send('DELETE', `/users/${victim}`))) expected.deletedUsers.add(victim);
      }
      for (let i = 0; i < 6 && !dead(); i++) {
        const username = `crash_${round}_${i}`;
        if (ok(await send('POST', '/users', { username, password: PASSWORD }))) expected.users.add(username);
      }
    },
    async () => {
      for (let i = 0; i < 8 && !dead(); i++) {
        const name = `crash-key-${round}-${i}`;
        if (ok(await send('POST', '/api_key', { name, desc: 'crash test', enable: true }))) expected.keys.add(name);
      }
    },
    async () => {
      for (let i = 0; i < 2 && !dead(); i++) {
        const topic = `crash/${round}/${i}`;
        if (ok(await send('POST', '/mqtt/topic_metrics', { topic }))) expected.topicMetrics.add(topic);
      }
    },
    async () => {
      for (let i = 0; i < 10 && !dead(); i++) {
        const source = `rw/${round}/${i}`;
        expected.rewrite.later.push(source);
        if (ok(await send('PUT', '/mqtt/topic_rewrite', [{ action: 'publish', source_topic: source, dest_topic: 'crash/dest', re: '^rw/(.+)$' }]))) {
          expected.rewrite = { acked: source, later: [] };
        }
      }
    },
    async () => {
      for (let i = 0; i < 10 && !dead(); i++) {
        const topic = `as/${round}/${i}`;
        expected.autoSubscribe.later.push(topic);
        if (ok(await send('PUT', '/mqtt/auto_subscribe', [{ topic, qos: 0 }]))) expected.autoSubscribe = { acked: topic, later: [] };
      }
    },
  ];
  await Promise.all(writers.map((w) => w()));
}

test(`${ROUNDS} bursts of configuration writes, each ended by SIGKILL at a random moment, lose no acknowledged write`, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-crash-'));
  const expected: Expected = {
    users: new Set(['admin']), deletedUsers: new Set(), keys: new Set(), topicMetrics: new Set(),
    rewrite: { acked: null, later: [] }, autoSubscribe: { acked: null, later: [] }, acknowledged: 0,
  };
  let killedMidBurst = 0;
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      assertStateFileValid(dir, round);
      const sim = await spawnSimulator(['--data-dir', dir, '--seed', 'empty', '--nodes', '1']);
      try {
        const token = await login(sim.baseUrl);
        await verify(sim, token, expected, round);
        // A kill between the two renames legitimately loads state.prev.json; a corrupt file never.
        assert.not.match(sim.stderr(), /corrupt|damaged/, `round ${round}: ${sim.stderr()}`);
        let dead = false;
        // The kill comes after a random number of acknowledged writes (of about 36 a burst) and a
        // random 0–3 ms: at another point of the burst each round, and while writes are in flight
        // on a fast machine as on a slow one.
        const target = 1 + Math.floor(Math.random() * 24);
        let acks = 0;
        let reach = () => {};
        const reached = new Promise<void>((resolve) => (reach = resolve));
        const running = burst(sim, token, expected, round, () => dead, () => ++acks === target && reach());
        const finished = await Promise.race([
          running.then(() => true),
          reached.then(() => new Promise((r) => setTimeout(r, Math.random() * 3))).then(() => false),
        ]);
        if (!finished) killedMidBurst++;
        sim.child.kill('SIGKILL');
        dead = true;
        await running;
      } finally {
        await sim.kill('SIGKILL');
      }
    }
    // The last kill is checked too.
    assertStateFileValid(dir, ROUNDS + 1);
    const sim = await spawnSimulator(['--data-dir', dir, '--seed', 'empty', '--nodes', '1']);
    try {
      await verify(sim, await login(sim.baseUrl), expected, ROUNDS + 1);
      assert.not.match(sim.stderr(), /corrupt|damaged/);
    } finally {
      await sim.kill();
    }
    assert.ok(expected.acknowledged >= 3 * ROUNDS, `too few writes were acknowledged to prove anything (${expected.acknowledged})`);
    assert.ok(killedMidBurst >= ROUNDS / 2, `only ${killedMidBurst} of ${ROUNDS} kills landed while writes were in flight`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
