import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingLocales } from '../../web/lib/i18n.ts';

const web = fileURLToPath(new URL('../../web', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
const sources = files(web);

// Load every module that registers messages, as the running console would.
for (const file of sources) {
  if (/defineMessages\(/.test(readFileSync(file, 'utf8'))) await import(file);
}

const areas = new Set<string>();
for (const file of sources) {
  for (const m of readFileSync(file, 'utf8').matchAll(/'([a-z][A-Za-z]*)\.[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*':\s*\{\s*zh:/g)) areas.add(m[1]);
}

test('every message key used in the console has a Chinese and an English text', () => {
  const used = new Map<string, string>();
  const literal = new RegExp(`['\`]((?:${[...areas].join('|')})\\.[A-Za-z][A-Za-z0-9]*)['\`]`, 'g');
  for (const file of sources) {
    for (const m of readFileSync(file, 'utf8').matchAll(literal)) {
      // File names in comments (`errors.ts`) look like keys; they are not.
      if (!/\.(tsx?|css|js|hocon)$/.test(m[1])) used.set(m[1], path.relative(web, file));
    }
  }
  assert.ok(used.size > 50, `found ${used.size} keys`);
  const missing = [...used].filter(([key]) => missingLocales(key).length > 0).map(([key, file]) => `${key} (${file}): ${missingLocales(key)}`);
  assert.equal(missing, []);
});

test('no message key is defined in two places (the later one would silently win)', () => {
  const seen = new Map<string, string>();
  const twice: string[] = [];
  for (const file of sources) {
    for (const m of readFileSync(file, 'utf8').matchAll(/^\s*'([a-z][A-Za-z]*(?:\.[A-Za-z0-9]+)+)':\s*\{\s*zh:/gm)) {
      if (seen.has(m[1])) twice.push(`${m[1]}: ${seen.get(m[1])} and ${path.relative(web, file)}`);
      seen.set(m[1], path.relative(web, file));
    }
  }
  assert.equal(twice, []);
});

test('menu group titles exist for every group a feature can use', async () => {
  const { MENU_GROUPS } = await import('../../web/lib/feature.ts');
  for (const group of MENU_GROUPS) assert.equal(missingLocales(`menu.${group}`), [], group);
});

test('labels that used to show English in the Chinese console have Chinese texts', async () => {
  const { setLocale, t, getLocale } = await import('../../web/lib/i18n.ts');
  const before = getLocale();
  setLocale('zh');
  const keys = ['clients.reductions', 'listener.proxyProtocol', 'listener.backlog', 'config.dashboard', 'gateway.secret', 'authn.saltRounds',
    'access.baseDn', 'rules.event.alarmActivated.title', 'rules.event.alarmDeactivated.title'];
  const english = keys.filter((key) => !/[\u4e00-\u9fff]/.test(t(key))).map((key) => `${key}: ${t(key)}`);
  setLocale(before);
  assert.equal(english, []);
});

test.run();
