// Runs the uvu suites named on the command line (unit, ui, api, e2e), each in its own Node process
// (happy-dom globals only for unit and ui: mqtt.js must see plain Node in api tests), streams
// their output, and ends with one line `N passed, N failed` over all of them.
import { spawn } from 'node:child_process';

const SUITES = {
  unit: { dir: 'unit', dom: true },
  ui: { dir: 'ui', dom: true },
  api: { dir: 'api', dom: false },
  e2e: { dir: 'e2e', dom: false },
};

/**
 * The failed files and their FAIL blocks (first lines), so the end of a long log still says which
 * tests failed and how: uvu prints them where each file ran.
 */
function failures(plain) {
  const lines = plain.split('\n');
  const out = [];
  let file = '';
  for (let i = 0; i < lines.length; i++) {
    if (/\.test\.tsx?$/.test(lines[i].trim())) file = lines[i].trim();
    if (/^\s*✘/.test(lines[i])) out.push(`${file} ${lines[i].trim()}`);
    if (/^\s+FAIL\s/.test(lines[i])) out.push(...lines.slice(i, i + 8).filter((l) => l.trim()).map((l) => `  ${l.trimEnd()}`));
  }
  return out;
}

function run(names) {
  const dom = SUITES[names[0]].dom;
  const pattern = `(${names.map((n) => SUITES[n].dir).join('|')})/.*\\.test\\.tsx?$`;
  const args = ['--import', 'tsx/esm', ...(dom ? ['--import', './tests/helpers/setup.ts'] : []), 'node_modules/uvu/bin.js', 'tests', pattern];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    // A suite that leaves a timer or socket open would never exit: end it after its summary.
    let watchdog;
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      process.stdout.write(chunk);
      if (/Duration:/.test(String(chunk)) && !watchdog) watchdog = setTimeout(() => child.kill('SIGKILL'), 5000);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(watchdog);
      const code = signal === 'SIGKILL' && watchdog ? 0 : exitCode;
      const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
      const total = Number(/Total:\s+(\d+)/.exec(plain)?.[1] ?? 0);
      const passed = Number(/Passed:\s+(\d+)/.exec(plain)?.[1] ?? 0);
      const skipped = Number(/Skipped:\s+(\d+)/.exec(plain)?.[1] ?? 0);
      // A crash before uvu's summary counts as one failure, so a broken suite never looks green.
      const failed = code !== 0 && total - passed - skipped === 0 ? 1 : total - passed - skipped;
      resolve({ passed, failed, skipped, code, signal, recap: failures(plain) });
    });
  });
}

const requested = process.argv.slice(2);
const unknown = requested.filter((n) => !SUITES[n]);
if (requested.length === 0 || unknown.length) {
  console.error(`usage: node tests/run.mjs ${Object.keys(SUITES).join('|')} …`);
  process.exit(2);
}
// Suites that share the DOM set-up run in one process; the others each in their own.
const groups = [requested.filter((n) => SUITES[n].dom), ...requested.filter((n) => !SUITES[n].dom).map((n) => [n])].filter((g) => g.length);
let passed = 0;
let failed = 0;
let skipped = 0;
let exit = 0;
const recap = [];
for (const group of groups) {
  const result = await run(group);
  recap.push(...result.recap);
  if (result.code !== 0 && !result.recap.length) recap.push(`${group.join(' ')}: exited with ${result.signal ?? `code ${result.code}`} before or after its summary`);
  passed += result.passed;
  failed += result.failed;
  skipped += result.skipped;
  if (result.code !== 0) exit = 1;
}
if (recap.length) console.log(`\nFailed:\n${recap.join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(exit || (failed ? 1 : 0));
