// The Eclipse Paho MQTT interoperability suites (client_test5.py for MQTT 5, client_test.py for
// 3.1.1) against the simulator: starts one on free ports with a temporary data directory and the
// demo seed (as `npm start`), denies subscriptions to `test/nosubscribe` through the REST API,
// runs each suite with python3 and prints a table of passes and failures. It does not install
// Python or the suites; without them it says "skipped" and succeeds.
//
//   node --import tsx/esm tests/interop/paho.ts [--suite 5|311|both] [--dir DIR]
//        [--min5 25] [--min311 10] [--timeout 900] [--test-timeout 120]
//        [--emqx-version 5.5.1|5.8.9] [--zone key=value,…]   (the simulator's release; zone settings
//        put through PUT /configs/global_zone before the run, e.g. server_keepalive=60)
//        [--broker 127.0.0.1:1883 --api http://127.0.0.1:18083]   (a running simulator instead)
//        [--log FILE]   (the suites' own output, appended)
//
// DIR (or env PAHO_DIR) is the suites' `interoperability` folder, a checkout holding it, or a bare
// git clone of eclipse/paho.mqtt.testing (also as DIR/repo). The suites run from a temporary copy
// whose host and port defaults are rewritten (client_test.py hands `-p` on to unittest, which
// refuses it) and whose unittest lists every test with its outcome. A test that waits forever
// (test_flow_control2 does when the CONNACK has no Receive Maximum, as 5.5.1's has none: its client
// runs out of packet ids before it reads anything) is stopped after --test-timeout seconds and the
// rest of the suite runs on in a new process.
//
// Against EMQX's defaults four MQTT 5 tests fail, as on the broker itself: the suite wants Server
// Keep Alive 60 (`mqtt.server_keepalive` is `disabled` by default; set, it overrides every client's
// keepalive as emqx_channel.erl ensure_keepalive does, and test_keepalive and test_will_message,
// which rely on a short client keepalive, fail instead), a DISCONNECT 0x93 once more QoS 2 messages
// await PUBREL than the CONNACK's Receive Maximum (EMQX's bound is `max_awaiting_rel`, 100, while
// Receive Maximum is `max_inflight`, 32, and 5.5.1 sends none), SUBACK 0x80 for a refused filter
// (EMQX says 0x87) and one copy with both identifiers for overlapping subscriptions (EMQX sends one
// per subscription). `--emqx-version 5.8.9 --zone max_awaiting_rel=32` lines the second up as an
// operator can.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { login, request, spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';

interface Suite {
  id: '5' | '311';
  file: string;
  min: number;
}

const argv = process.argv.slice(2);
function flag(name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}
function numberFlag(name: string, fallback: number): number {
  const value = flag(name);
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name}: not a number: ${value}`);
  return n;
}

const which = flag('suite') ?? 'both';
if (!['5', '311', 'both'].includes(which)) throw new Error(`--suite: 5, 311 or both, not ${which}`);
const SUITES: Suite[] = [
  { id: '5' as const, file: 'client_test5.py', min: numberFlag('min5', 25) },
  { id: '311' as const, file: 'client_test.py', min: numberFlag('min311', 10) },
].filter((s) => which === 'both' || which === s.id);
const suiteTimeout = numberFlag('timeout', 900) * 1000;
const testTimeout = numberFlag('test-timeout', 120) * 1000;
const logFile = flag('log');
const log = (chunk: string) => {
  if (logFile) appendFileSync(logFile, chunk);
};

function skip(why: string): never {
  console.log(`skipped: ${why}`);
  process.exit(0);
}

/** The `interoperability` folder of DIR, extracted to `work` when DIR is a bare git clone. */
function locateSuites(dir: string, work: string): string {
  if (existsSync(path.join(dir, 'client_test5.py'))) return dir;
  if (existsSync(path.join(dir, 'interoperability', 'client_test5.py'))) return path.join(dir, 'interoperability');
  const bare = existsSync(path.join(dir, 'HEAD')) && existsSync(path.join(dir, 'objects')) ? dir : path.join(dir, 'repo');
  if (existsSync(path.join(bare, 'HEAD'))) {
    const archive = spawnSync('git', ['-C', bare, 'archive', 'HEAD', 'interoperability'], { maxBuffer: 1 << 28 });
    if (archive.status === 0) {
      const untar = spawnSync('tar', ['x', '-C', work], { input: archive.stdout });
      if (untar.status === 0 && existsSync(path.join(work, 'interoperability', 'client_test5.py'))) return path.join(work, 'interoperability');
    }
  }
  return skip(`no Paho interoperability suites in ${dir}`);
}

/** Points a suite's copy at the broker and makes unittest list every test with its outcome. */
function patchSuite(file: string, host: string, port: number): void {
  let text = readFileSync(file, 'utf8');
  const edits: [RegExp, string][] = [
    [/^(\s*)host = "localhost"\s*$/m, `$1host = "${host}"`],
    [/^(\s*)port = 1883\s*$/m, `$1port = ${port}`],
    [/unittest\.main\(\)/, 'unittest.main(verbosity=2)'],
  ];
  for (const [pattern, replacement] of edits) {
    if (!pattern.test(text)) throw new Error(`${path.basename(file)}: cannot find ${pattern} to patch`);
    text = text.replace(pattern, replacement);
  }
  writeFileSync(file, text);
}

/** The test methods of the suite's `Test` class, in unittest's (alphabetical) order. */
function testNames(file: string): string[] {
  const names = [...readFileSync(file, 'utf8').matchAll(/^\s+def (test\w*)\(self\)/gm)].map((m) => m[1]);
  return [...new Set(names)].sort();
}

type Outcome = 'ok' | 'FAIL' | 'ERROR' | 'skipped' | 'timeout' | 'not run';

const START = /^(test\w*) \([\w.]+\)/;
const RESULT = /(?:^|\.\.\. )(ok|FAIL|ERROR|skipped\b.*|expected failure|unexpected success)\s*$/;
const SUMMARY = /^(FAIL|ERROR): (test\w*) \(/;

/**
 * Reads unittest's verbose report (stderr) as it grows: a test's line `name (module.Class.name)`
 * is followed, maybe after its docstring or warnings, by its outcome at the end of a line; the
 * closing `FAIL: name` / `ERROR: name` headers are authoritative.
 */
class Report {
  outcomes = new Map<string, Outcome>();
  current: string | null = null;
  private partial = '';
  private summary = false;

  feed(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.line(line);
    // A test's line stays open (`name (…) ... `) while it runs: it is the running one already.
    const running = this.summary ? null : START.exec(this.partial);
    if (running) this.current = running[1];
  }

  end(): void {
    if (this.partial) this.line(this.partial);
    this.partial = '';
  }

  private line(raw: string): void {
    const line = raw.replace(/\r$/, '');
    if (/^=+$/.test(line) || /^-{20,}$/.test(line)) this.summary = true;
    const failure = SUMMARY.exec(line);
    if (failure) {
      this.outcomes.set(failure[2], failure[1] as Outcome);
      return;
    }
    if (this.summary) return;
    const start = START.exec(line);
    if (start) this.current = start[1];
    const result = RESULT.exec(line);
    if (result && this.current) {
      const word = result[1].startsWith('skipped') ? 'skipped' : result[1];
      this.outcomes.set(this.current, word === 'ok' || word === 'expected failure' ? 'ok' : (word as Outcome));
      this.current = null;
    }
  }
}

/**
 * Runs the named tests in one python3 process. Stops it when the suite's time is up or when no
 * test finishes for `testTimeout` (a test waiting forever); the test it was running then counts
 * as timed out.
 */
function runTests(dir: string, file: string, names: string[], report: Report, deadline: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn('python3', [file, ...names.map((n) => `Test.${n}`)], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', log);
    let stuck: NodeJS.Timeout;
    const kill = () => {
      if (report.current) report.outcomes.set(report.current, 'timeout');
      child.kill('SIGKILL');
    };
    const arm = () => {
      clearTimeout(stuck);
      stuck = setTimeout(kill, Math.max(0, Math.min(testTimeout, deadline - Date.now())));
    };
    arm();
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      log(chunk);
      const before = report.outcomes.size;
      report.feed(chunk);
      if (report.outcomes.size !== before) arm();
    });
    child.on('close', () => {
      clearTimeout(stuck);
      report.end();
      resolve();
    });
  });
}

interface SuiteResult {
  suite: Suite;
  passed: string[];
  failed: { name: string; outcome: Outcome }[];
}

async function runSuite(dir: string, suite: Suite): Promise<SuiteResult> {
  const names = testNames(path.join(dir, suite.file));
  const report = new Report();
  const deadline = Date.now() + suiteTimeout;
  // After a stopped run, the tests it did not reach run in a new process.
  for (let round = 0; round < names.length && Date.now() < deadline; round++) {
    const left = names.filter((n) => !report.outcomes.has(n));
    if (left.length === 0) break;
    await runTests(dir, suite.file, left, report, deadline);
    // A run that reported nothing (python crashed in set-up) is not retried.
    if (left.every((n) => !report.outcomes.has(n))) break;
  }
  const passed = names.filter((n) => report.outcomes.get(n) === 'ok');
  const failed = names.filter((n) => report.outcomes.get(n) !== 'ok').map((name) => ({ name, outcome: report.outcomes.get(name) ?? 'not run' }));
  return { suite, passed, failed };
}

/** Denies every client subscriptions to `test/nosubscribe` (built-in database source, `all` rules). */
async function denyNoSubscribe(apiBase: string): Promise<void> {
  const token = await login(apiBase);
  const call = (method: string, url: string, body?: unknown) => request(apiBase, method, `/api/v5${url}`, { token, body });
  const sources = (await call('GET', '/authorization/sources')).json?.sources as { type: string; enable: boolean }[] | undefined;
  const builtIn = sources?.find((s) => s.type === 'built_in_database');
  if (!builtIn) {
    const created = await call('POST', '/authorization/sources', { type: 'built_in_database', enable: true });
    if (created.status !== 204) throw new Error(`cannot add the built-in authorization source: ${created.status} ${created.text}`);
  } else if (!builtIn.enable) {
    const enabled = await call('PUT', '/authorization/sources/built_in_database', { ...builtIn, enable: true });
    if (enabled.status !== 204) throw new Error(`cannot enable the built-in authorization source: ${enabled.status} ${enabled.text}`);
  }
  const rules = ((await call('GET', '/authorization/sources/built_in_database/rules/all')).json?.rules ?? []) as { topic: string; action: string; permission: string }[];
  const deny = { permission: 'deny', action: 'subscribe', topic: 'test/nosubscribe' };
  if (rules.some((r) => r.topic === deny.topic && r.action === deny.action && r.permission === deny.permission)) return;
  const set = await call('POST', '/authorization/sources/built_in_database/rules/all', { rules: [deny, ...rules] });
  if (set.status !== 204) throw new Error(`cannot add the deny rule: ${set.status} ${set.text}`);
}

/** `key=value,…` into the zone's `mqtt` settings (numbers as numbers). */
async function setZone(apiBase: string, settings: string): Promise<void> {
  const mqtt: Record<string, unknown> = {};
  for (const pair of settings.split(',')) {
    const [key, value] = pair.split('=');
    if (!key || value === undefined) throw new Error(`--zone: key=value, not ${pair}`);
    mqtt[key] = /^\d+$/.test(value) ? Number(value) : value;
  }
  const token = await login(apiBase);
  const res = await request(apiBase, 'PUT', '/api/v5/configs/global_zone', { token, body: { mqtt } });
  if (res.status !== 200) throw new Error(`cannot set the zone: ${res.status} ${res.text}`);
  console.error(`zone: ${settings}`);
}

function printTable(results: SuiteResult[]): void {
  const rows = [['suite', 'passed', 'failed', 'minimum', 'failures']];
  for (const r of results) {
    const label = r.suite.id === '5' ? 'MQTT 5' : 'MQTT 3.1.1';
    const failures = r.failed.map((f) => (f.outcome === 'FAIL' ? f.name : `${f.name} (${f.outcome})`)).join(', ') || '-';
    rows.push([label, String(r.passed.length), String(r.failed.length), String(r.suite.min), failures]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows) console.log(row.map((cell, i) => (i === 4 ? cell : cell.padEnd(widths[i]))).join('  '));
}

const source = flag('dir') ?? process.env.PAHO_DIR;
if (!source) skip('no Paho suites given (--dir DIR or PAHO_DIR)');
if (!existsSync(source)) skip(`${source} does not exist`);
const python = spawnSync('python3', ['--version']);
if (python.error || python.status !== 0) skip('python3 is not installed');

const work = mkdtempSync(path.join(os.tmpdir(), 'paho-'));
let sim: SpawnedSimulator | null = null;
let code = 0;
try {
  const suites = path.join(work, 'suites');
  cpSync(locateSuites(path.resolve(source), work), suites, { recursive: true });
  const broker = flag('broker');
  let host = '127.0.0.1';
  let port: number;
  let apiBase: string;
  if (broker) {
    const [h, p] = broker.replace(/^mqtt:\/\//, '').split(':');
    host = h;
    port = Number(p ?? 1883);
    apiBase = flag('api') ?? 'http://127.0.0.1:18083';
  } else {
    const release = flag('emqx-version');
    sim = await spawnSimulator(['--seed', 'demo', ...(release ? ['--emqx-version', release] : [])]);
    port = sim.mqtt;
    apiBase = sim.baseUrl;
  }
  await denyNoSubscribe(apiBase);
  const zone = flag('zone');
  if (zone) await setZone(apiBase, zone);
  const results: SuiteResult[] = [];
  for (const suite of SUITES) {
    patchSuite(path.join(suites, suite.file), host, port);
    console.error(`running ${suite.file} against ${host}:${port} …`);
    results.push(await runSuite(suites, suite));
  }
  printTable(results);
  const short = results.filter((r) => r.passed.length < r.suite.min);
  for (const r of short) console.log(`below the minimum: ${r.suite.file} passed ${r.passed.length}, needs ${r.suite.min}`);
  code = short.length > 0 ? 1 : 0;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  code = 2;
} finally {
  await sim?.kill();
  rmSync(work, { recursive: true, force: true });
}
process.exit(code);
