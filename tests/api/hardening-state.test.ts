// Persist, then apply, and state that is never silently lost (security.md S23, S24), plus the
// operational basics of `simulator/main.ts`: one simulator per data directory, damaged or
// wrongly shaped state refused with the way out named, a busy port named with its flag, and at
// most one log line per request.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, login, request, spawnSimulator, waitFor } from '../helpers/simulator.ts';

const PASSWORD = 'Hardened-pass1';
const NEW_ADMIN_PASSWORD = 'Changed-admin9';

function tempDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'sim-s23-'));
}

/** Starts a child simulator that is expected to refuse: its exit code and stderr. */
async function refusedStart(args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const sim = await spawnSimulator(args);
    await sim.kill();
  } catch (err) {
    const match = /^simulator exited with (\S+) before listening:\n([\s\S]*)$/.exec((err as Error).message);
    assert.ok(match, (err as Error).message);
    return { code: Number(match[1]), stderr: match[2] };
  }
  assert.unreachable(`the simulator started with ${args.join(' ')}`);
  throw new Error('unreachable');
}

/** Usernames as stored in a state file. */
function storedUsers(file: string): string[] {
  return JSON.parse(readFileSync(file, 'utf8')).state.users.map((u: { username: string }) => u.username).sort();
}

/** Re-signs a state file's envelope after changing its state, so only the shape is wrong. */
function rewriteState(file: string, change: (state: Record<string, unknown>) => void): void {
  const envelope = JSON.parse(readFileSync(file, 'utf8'));
  change(envelope.state);
  envelope.sha256 = createHash('sha256').update(JSON.stringify(envelope.state)).digest('hex');
  writeFileSync(file, JSON.stringify(envelope));
}

function assertNoStackTrace(stderr: string): void {
  assert.not.match(stderr, /\n\s+at /, `a stack trace was printed:\n${stderr}`);
}

test('a change whose save fails answers 500, changes nothing, and the next save works again', async () => {
  const dir = tempDir();
  const warnings: string[] = [];
  try {
    const app = await buildTestApp({ dataDir: dir, warn: (m) => warnings.push(m) });
    const token = await login(app);
    // The temp file every save opens first is a directory now: the write fails even as root.
    const tmp = path.join(dir, 'state.json.tmp');
    mkdirSync(tmp);

    const res = await api(app, 'POST', '/api/v5/users', { token, body: { username: 'ghost', password: PASSWORD } });
    assert.is(res.statusCode, 500);
    assert.is(res.json().code, 'INTERNAL_ERROR');
    assert.match(res.json().message, /saved/);
    assert.not.match(res.body, new RegExp(dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'no file path in the answer (S17)');
    const users = (await api(app, 'GET', '/api/v5/users', { token })).json().map((u: { username: string }) => u.username);
    assert.equal(users, ['admin']);
    const ghostLogin = await api(app, 'POST', '/api/v5/login', { body: { username: 'ghost', password: PASSWORD } });
    assert.is(ghostLogin.statusCode, 401, 'a user whose save failed cannot log in');
    assert.ok(warnings.some((w) => /could not be saved/.test(w)), warnings.join('\n'));

    // Writes batched into one failed save all get the 500, and none of them is applied.
    const batch = await Promise.all(['b1', 'b2', 'b3'].map((username) =>
      api(app, 'POST', '/api/v5/users', { token, body: { username, password: PASSWORD } })));
    assert.equal(batch.map((r) => r.statusCode), [500, 500, 500]);
    // A cached module follows the rollback too: the rewrite rules stay the old (empty) list.
    const rewrite = await api(app, 'PUT', '/api/v5/mqtt/topic_rewrite', { token, body: [{ action: 'publish', source_topic: 'x/#', re: '^x/(.+)$', dest_topic: 'y/$1' }] });
    assert.is(rewrite.statusCode, 500);
    assert.equal((await api(app, 'GET', '/api/v5/mqtt/topic_rewrite', { token })).json(), []);
    assert.is(app.store.rewrite.rewrite('x/1', 'publish'), 'x/1');
    assert.equal((await api(app, 'GET', '/api/v5/users', { token })).json().map((u: { username: string }) => u.username), ['admin']);

    rmdirSync(tmp);
    const ok = await api(app, 'POST', '/api/v5/users', { token, body: { username: 'real', password: PASSWORD } });
    assert.is(ok.statusCode, 200);
    await login(app, 'real', PASSWORD);
    await app.close();
    assert.equal(storedUsers(path.join(dir, 'state.json')), ['admin', 'real']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a second simulator on the same data directory refuses to start and names it', async () => {
  const dir = tempDir();
  try {
    const first = await spawnSimulator(['--data-dir', dir, '--seed', 'empty', '--nodes', '1']);
    try {
      const { code, stderr } = await refusedStart(['--data-dir', dir, '--seed', 'empty', '--nodes', '1']);
      assert.ok(code !== 0, `exit code ${code}`);
      assert.ok(stderr.includes(path.resolve(dir)), stderr);
      assertNoStackTrace(stderr);
      // The first one is undisturbed.
      await login(first.baseUrl);
    } finally {
      await first.kill();
    }
    // Closing released the lock.
    const third = await spawnSimulator(['--data-dir', dir, '--seed', 'empty', '--nodes', '1']);
    await third.kill();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('one flipped byte in state.json after a password change refuses to start; --reset-data starts fresh and keeps the files aside', async () => {
  const dir = tempDir();
  try {
    const app = await buildTestApp({ dataDir: dir });
    const token = await login(app);
    const changed = await api(app, 'POST', '/api/v5/users/admin/change_pwd', { token, body: { old_pwd: 'public', new_pwd: NEW_ADMIN_PASSWORD } });
    assert.is(changed.statusCode, 204);
    await app.close();

    const stateFile = path.join(dir, 'state.json');
    const text = readFileSync(stateFile, 'utf8');
    // A byte inside the body (the admin's password hash), not in the envelope's header.
    const at = text.indexOf('"password_hash":"') + 24;
    const damaged = text.slice(0, at) + (text[at] === 'a' ? 'b' : 'a') + text.slice(at + 1);
    writeFileSync(stateFile, damaged);
    const prevBefore = readFileSync(path.join(dir, 'state.prev.json'), 'utf8');

    const { code, stderr } = await refusedStart(['--data-dir', dir, '--seed', 'empty']);
    assert.ok(code !== 0, `exit code ${code}`);
    assert.ok(stderr.includes(stateFile), stderr);
    assert.ok(stderr.includes(path.join(dir, 'state.prev.json')), stderr);
    assert.match(stderr, /--reset-data/);
    assertNoStackTrace(stderr);
    assert.is(readFileSync(stateFile, 'utf8'), damaged, 'a refused start leaves the files as they were');

    const fresh = await spawnSimulator(['--data-dir', dir, '--seed', 'empty', '--reset-data']);
    try {
      await login(fresh.baseUrl, 'admin', 'public');
    } finally {
      await fresh.kill();
    }
    const aside = readdirSync(dir);
    const keptState = aside.filter((f) => f.startsWith('state.json.reset-'));
    const keptPrev = aside.filter((f) => f.startsWith('state.prev.json.reset-'));
    assert.is(keptState.length, 1, aside.join(', '));
    assert.is(keptPrev.length, 1, aside.join(', '));
    assert.is(readFileSync(path.join(dir, keptState[0]), 'utf8'), damaged);
    assert.is(readFileSync(path.join(dir, keptPrev[0]), 'utf8'), prevBefore);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a truncated only state file, or one of the wrong shape, refuses to start without a stack trace', async () => {
  const dir = tempDir();
  try {
    const app = await buildTestApp({ dataDir: dir });
    await app.close();
    const stateFile = path.join(dir, 'state.json');
    assert.not.ok(existsSync(path.join(dir, 'state.prev.json')), 'the first save leaves one file');
    const whole = readFileSync(stateFile, 'utf8');

    writeFileSync(stateFile, whole.slice(0, Math.floor(whole.length / 2)));
    const truncated = await refusedStart(['--data-dir', dir, '--seed', 'empty']);
    assert.ok(truncated.code !== 0);
    assert.ok(truncated.stderr.includes(stateFile), truncated.stderr);
    assert.match(truncated.stderr, /--reset-data/);
    assertNoStackTrace(truncated.stderr);

    writeFileSync(stateFile, whole);
    rewriteState(stateFile, (state) => { state.users = 5; });
    const wrongShape = await refusedStart(['--data-dir', dir, '--seed', 'empty']);
    assert.ok(wrongShape.code !== 0);
    assert.ok(wrongShape.stderr.includes(stateFile), wrongShape.stderr);
    assert.match(wrongShape.stderr, /users/);
    assert.match(wrongShape.stderr, /--reset-data/);
    assertNoStackTrace(wrongShape.stderr);

    // The same in process: buildApp rejects with the message, and never opens admin/public.
    await buildTestApp({ dataDir: dir }).then(
      () => assert.unreachable('started over a wrongly shaped state'),
      (err: Error) => assert.match(err.message, /--reset-data/),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('D4: a missing state.json beside state.prev.json is reported, not used: the start is refused naming both and --reset-data', async () => {
  const dir = tempDir();
  try {
    const app = await buildTestApp({ dataDir: dir });
    const token = await login(app);
    assert.is((await api(app, 'POST', '/api/v5/users', { token, body: { username: 'kept', password: PASSWORD } })).statusCode, 200);
    assert.is((await api(app, 'POST', '/api/v5/users', { token, body: { username: 'latest', password: PASSWORD } })).statusCode, 200);
    await app.close();
    // Saves never leave the directory without state.json (the previous file is a second name).
    assert.ok(existsSync(path.join(dir, 'state.json')));
    const prev = readFileSync(path.join(dir, 'state.prev.json'), 'utf8');
    rmSync(path.join(dir, 'state.json'));
    const { code, stderr } = await refusedStart(['--data-dir', dir, '--seed', 'empty']);
    assert.ok(code !== 0, `exit code ${code}`);
    assert.ok(stderr.includes(path.join(dir, 'state.json')), stderr);
    assert.ok(stderr.includes(path.join(dir, 'state.prev.json')), stderr);
    assert.match(stderr, /--reset-data/);
    assertNoStackTrace(stderr);
    assert.is(readFileSync(path.join(dir, 'state.prev.json'), 'utf8'), prev, 'a refused start leaves the files as they were');
    assert.not.ok(existsSync(path.join(dir, 'state.json')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A data directory with one save, whose state `change` then rewrites with a good checksum. */
async function savedThenRewritten(change: (state: Record<string, unknown>) => void): Promise<string> {
  const dir = tempDir();
  const app = await buildTestApp({ dataDir: dir });
  await app.close();
  rewriteState(path.join(dir, 'state.json'), change);
  return dir;
}

test('D4: `users: []` with a good checksum, or users without an administrator, refuse to start; admin/public is never re-created', async () => {
  for (const [what, change] of [
    ['no users', (state: Record<string, unknown>) => { state.users = []; }],
    ['only a viewer', (state: Record<string, unknown>) => { (state.users as Record<string, unknown>[])[0].role = 'viewer'; }],
  ] as const) {
    const dir = await savedThenRewritten(change);
    try {
      const { code, stderr } = await refusedStart(['--data-dir', dir, '--seed', 'empty']);
      assert.ok(code !== 0, `${what}: exit code ${code}`);
      assert.match(stderr, /users/, what);
      assert.match(stderr, /--reset-data/, what);
      assertNoStackTrace(stderr);
      await buildTestApp({ dataDir: dir }).then(
        () => assert.unreachable(`${what}: started`),
        (err: Error) => assert.match(err.message, /administrator|dashboard user/),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('D4: a state whose items its modules refuse (a rule with a numeric id, a ban with who: null) is refused at start with the file and item named', async () => {
  for (const [what, change, named] of [
    ['rule id', (state: Record<string, unknown>) => { state.rules = [{ id: 42, sql: 'SELECT * FROM "t/#"', actions: [], enable: true }]; }, /rules\[0\]/],
    ['ban who', (state: Record<string, unknown>) => { state.banned = [{ as: 'clientid', who: null, by: 'x', reason: '', at: 1, until: null }]; }, /banned\[0\]/],
  ] as const) {
    const dir = await savedThenRewritten(change);
    try {
      await buildTestApp({ dataDir: dir }).then(
        () => assert.unreachable(`${what}: started`),
        (err: Error) => {
          assert.ok(err.message.includes(path.join(dir, 'state.json')), err.message);
          assert.match(err.message, named);
          assert.match(err.message, /--reset-data/);
        },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('D4: a backup without an administrator is refused at import; one whose administrator is not `admin` imports, and a restart re-creates no admin', async () => {
  const dir = tempDir();
  try {
    const app = await buildTestApp({ dataDir: dir, emqxVersion: '5.8.9' });
    const token = await login(app);
    assert.is((await api(app, 'POST', '/api/v5/users', { token, body: { username: 'root', password: PASSWORD } })).statusCode, 200);
    assert.is((await api(app, 'POST', '/api/v5/users', { token, body: { username: 'watcher', password: PASSWORD, role: 'viewer' } })).statusCode, 200);
    const users = app.store.state.users;
    const exportWith = async (kept: string[]) => {
      const saved = users.splice(0, users.length);
      users.push(...saved.filter((u) => kept.includes(u.username)));
      const { filename } = (await api(app, 'POST', '/api/v5/data/export', { token, body: { table_sets: ['dashboard_users'] } })).json();
      users.splice(0, users.length, ...saved);
      return filename as string;
    };
    const viewersOnly = await exportWith(['watcher']);
    const refused = await api(app, 'POST', '/api/v5/data/import', { token, body: { filename: viewersOnly } });
    assert.is(refused.statusCode, 400, refused.body);
    assert.match(refused.json().message, /administrator/);
    const rootOnly = await exportWith(['root', 'watcher']);
    const imported = await api(app, 'POST', '/api/v5/data/import', { token, body: { filename: rootOnly } });
    assert.is(imported.statusCode, 204, imported.body);
    await app.close();

    const again = await buildTestApp({ dataDir: dir, emqxVersion: '5.8.9' });
    const defaultLogin = await api(again, 'POST', '/api/v5/login', { body: { username: 'admin', password: 'public' } });
    assert.is(defaultLogin.statusCode, 401, 'admin/public was not re-created');
    await login(again, 'root', PASSWORD);
    assert.equal(again.store.state.users.map((u) => u.username).sort(), ['root', 'watcher']);
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('D5: an owner stopped (SIGSTOP) for 5 s keeps its lock: a second start is refused, and no acknowledged write is lost', async () => {
  const dir = tempDir();
  const owner = await spawnSimulator(['--data-dir', dir, '--seed', 'empty', '--nodes', '1']);
  try {
    const token = await login(owner.baseUrl);
    const acknowledged: string[] = [];
    const write = async (i: number) => {
      const name = `w${i}`;
      const res = await request(owner.baseUrl, 'POST', '/api/v5/banned', { token, body: { as: 'clientid', who: name } });
      if (res.status === 200) acknowledged.push(name);
    };
    for (let i = 0; i < 20; i++) await write(i);
    owner.child.kill('SIGSTOP');
    try {
      await new Promise((r) => setTimeout(r, 5000));
      const started = Date.now();
      const { code, stderr } = await refusedStart(['--data-dir', dir, '--seed', 'empty', '--nodes', '1']);
      assert.ok(code !== 0, `exit code ${code}`);
      assert.match(stderr, new RegExp(`process ${owner.child.pid}`));
      assert.ok(Date.now() - started < 10_000, 'the refusal does not wait for the lock to age');
    } finally {
      owner.child.kill('SIGCONT');
    }
    for (let i = 20; i < 40; i++) await write(i);
    assert.is(acknowledged.length, 40);
    await owner.kill('SIGKILL');
    const after = await spawnSimulator(['--data-dir', dir, '--seed', 'empty', '--nodes', '1']);
    try {
      const t = await login(after.baseUrl);
      const res = await request(after.baseUrl, 'GET', '/api/v5/banned?limit=1000', { token: t });
      const kept = res.json.data.map((b: { who: string }) => b.who);
      assert.equal(acknowledged.filter((w) => !kept.includes(w)), [], 'acknowledged writes lost');
    } finally {
      await after.kill();
    }
  } finally {
    await owner.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a busy port stops the start with the port and its flag named, and nothing said to be listening', async () => {
  const dir = tempDir();
  const blocker = net.createServer();
  try {
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const busy = (blocker.address() as net.AddressInfo).port;
    for (const flag of ['--http-port', '--mqtt-port', '--ws-port']) {
      const { code, stderr } = await refusedStart(['--data-dir', dir, '--seed', 'empty', '--log-level', 'info', flag, String(busy)]);
      assert.ok(code !== 0, `${flag}: exit code ${code}`);
      assert.ok(stderr.includes(String(busy)), `${flag}: ${stderr}`);
      assert.ok(stderr.includes(flag), `${flag}: ${stderr}`);
      assert.not.match(stderr, /listening/i, `${flag}: ${stderr}`);
      assertNoStackTrace(stderr);
    }
  } finally {
    blocker.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('at log level info, N API requests write at most N lines, none with a password or token', async () => {
  const sim = await spawnSimulator(['--seed', 'empty', '--nodes', '1', '--log-level', 'info']);
  try {
    // The start-up lines (written last) say where to open the console and which ports were taken.
    await waitFor(() => sim.stderr().includes(`mqtt://127.0.0.1:${sim.mqtt}`), 2000, 'the start-up lines');
    assert.ok(sim.stderr().includes(`http://127.0.0.1:${sim.http}/`), sim.stderr());
    assert.ok(sim.stderr().includes(`ws://127.0.0.1:${sim.ws}/mqtt`), sim.stderr());
    const before = sim.stderr().length;
    const token = await login(sim.baseUrl);
    const n = 10;
    for (let i = 0; i < n - 1; i++) await request(sim.baseUrl, 'GET', '/api/v5/nodes', { token });
    // Let the child's last lines arrive.
    await new Promise((r) => setTimeout(r, 300));
    const lines = sim.stderr().slice(before).split('\n').filter((l) => l.trim() !== '');
    assert.ok(lines.length <= n, `${lines.length} lines for ${n} requests:\n${lines.join('\n')}`);
    assert.ok(lines.length >= 1, 'requests are logged at info');
    for (const line of lines) {
      assert.not.ok(line.includes('public'), `a password in the log: ${line}`);
      assert.not.ok(line.includes(token), `a token in the log: ${line}`);
    }
  } finally {
    await sim.kill();
  }
});

test.run();
