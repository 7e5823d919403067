// Durability of the configuration state (security.md D1, S24): acknowledged changes survive
// kill -9 of the simulator process, and a corrupt or half-written state file is reported; the
// previous file is not loaded in its place when it lacks the last acknowledged change (the start
// is refused and names --reset-data, which keeps the damaged file aside).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, login, request, spawnSimulator } from '../helpers/simulator.ts';

const PASSWORD = 'Durable-pass1';

function tempDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'sim-d1-'));
}

function storedUsers(file: string): string[] {
  return JSON.parse(readFileSync(file, 'utf8')).state.users.map((u: { username: string }) => u.username).sort();
}

async function listUsers(baseUrl: string): Promise<string[]> {
  const token = await login(baseUrl);
  const res = await request(baseUrl, 'GET', '/api/v5/users', { token });
  return res.json.map((u: { username: string }) => u.username).sort();
}

test('every user acknowledged before kill -9 is there after a restart', async () => {
  const dir = tempDir();
  try {
    const first = await spawnSimulator(['--data-dir', dir]);
    const token = await login(first.baseUrl);
    const acknowledged: string[] = [];
    let killed = false;
    const create = async (i: number) => {
      const username = `burst_${i}`;
      try {
        const res = await request(first.baseUrl, 'POST', '/api/v5/users', { token, body: { username, password: PASSWORD } });
        if (res.status === 200 && !killed) acknowledged.push(username);
      } catch {
        // The process died mid-request: not acknowledged.
      }
      if (acknowledged.length >= 12 && !killed) {
        killed = true;
        first.child.kill('SIGKILL');
      }
    };
    // Eight writers at a time, so the kill lands while other writes are in flight.
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < 60 && !killed) await create(next++);
    }));
    await first.kill('SIGKILL');
    assert.ok(acknowledged.length >= 12, `only ${acknowledged.length} acknowledged`);

    const second = await spawnSimulator(['--data-dir', dir]);
    try {
      const users = await listUsers(second.baseUrl);
      for (const name of acknowledged) assert.ok(users.includes(name), `${name} was acknowledged but is lost`);
      assert.ok(users.includes('admin'));
      assert.not.ok(second.stderr().includes('corrupt'));
    } finally {
      await second.kill();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a half-written state file is reported with --reset-data named; the previous state, which lacks its change, is not loaded; --reset-data keeps it aside', async () => {
  const dir = tempDir();
  try {
    const first = await spawnSimulator(['--data-dir', dir]);
    const token = await login(first.baseUrl);
    for (const username of ['alpha', 'beta']) {
      const res = await request(first.baseUrl, 'POST', '/api/v5/users', { token, body: { username, password: PASSWORD } });
      assert.is(res.status, 200);
    }
    await first.kill('SIGTERM');
    const stateFile = path.join(dir, 'state.json');
    const previousGood = storedUsers(path.join(dir, 'state.prev.json'));
    assert.equal(storedUsers(stateFile), ['admin', 'alpha', 'beta']);
    assert.equal(previousGood, ['admin', 'alpha']);
    const whole = readFileSync(stateFile, 'utf8');
    const half = whole.slice(0, Math.floor(whole.length / 2));
    writeFileSync(stateFile, half);

    // state.prev.json lacks beta, an acknowledged change: the start is refused.
    const refused = await spawnSimulator(['--data-dir', dir]).then(
      async (sim) => {
        await sim.kill();
        assert.unreachable(`started over a half-written state.json, its previous file holding ${previousGood.join(', ')}`);
        return '';
      },
      (err: Error) => err.message,
    );
    assert.match(refused, /exited with 1 before listening/);
    assert.match(refused, /state\.json: truncated/);
    assert.match(refused, /--reset-data/);
    assert.is(readFileSync(stateFile, 'utf8'), half, 'a refused start leaves the file as it was');

    const second = await spawnSimulator(['--data-dir', dir, '--reset-data']);
    try {
      const aside = readdirSync(dir).filter((f) => f.startsWith('state.json.reset-'));
      assert.is(aside.length, 1, 'the corrupt file is kept aside');
      assert.is(readFileSync(path.join(dir, aside[0]), 'utf8'), half, 'and not overwritten');
      assert.equal(await listUsers(second.baseUrl), ['admin']);
    } finally {
      await second.kill();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an edited state file fails its checksum and is not trusted: the start is refused', async () => {
  const dir = tempDir();
  const warnings: string[] = [];
  try {
    const app = await buildTestApp({ dataDir: dir, warn: (m) => warnings.push(m) });
    const token = await login(app);
    await api(app, 'POST', '/api/v5/users', { token, body: { username: 'gamma', password: PASSWORD } });
    await app.close();
    const stateFile = path.join(dir, 'state.json');
    writeFileSync(stateFile, readFileSync(stateFile, 'utf8').replace('"gamma"', '"gamm4"'));
    // Not trusted, and not replaced by state.prev.json, which lacks gamma (security.md S24).
    const message = await buildTestApp({ dataDir: dir, warn: (m) => warnings.push(m) }).then(
      async (again) => {
        await again.close();
        assert.unreachable('started over an edited state file');
        return '';
      },
      (err: Error) => err.message,
    );
    assert.ok(message.includes('checksum mismatch'), message);
    assert.ok(message.includes('--reset-data'), message);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('state written by one app is loaded by the next; tokens and counters are not persisted', async () => {
  const dir = tempDir();
  try {
    const app = await buildTestApp({ dataDir: dir });
    const token = await login(app);
    await api(app, 'POST', '/api/v5/users', { token, body: { username: 'delta', password: PASSWORD, description: 'kept' } });
    await api(app, 'POST', '/api/v5/api_key', { token, body: { name: 'kept-key', desc: 'd', enable: true } });
    await app.close();
    const raw = readFileSync(path.join(dir, 'state.json'), 'utf8');
    assert.not.ok(raw.includes(token), 'tokens are live state only');
    assert.not.ok(raw.includes(PASSWORD));
    const again = await buildTestApp({ dataDir: dir });
    const token2 = await login(again);
    assert.is((await api(again, 'GET', '/api/v5/nodes', { token })).json().code, 'BAD_TOKEN');
    const users = (await api(again, 'GET', '/api/v5/users', { token: token2 })).json();
    assert.equal(users.map((u: { username: string; description: string }) => [u.username, u.description]), [['admin', 'administrator'], ['delta', 'kept']]);
    assert.is((await api(again, 'GET', '/api/v5/api_key/kept-key', { token: token2 })).json().desc, 'd');
    await login(again, 'delta', PASSWORD);
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
