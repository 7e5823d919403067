// The build's Chinese catalogue (build/messages.mjs, web/lib/catalogue.ts, loadCatalogue in
// web/lib/i18n.ts): a call's Chinese texts leave its chunk and come back, with the catalogue,
// under the same keys; calls that are not a plain literal keep both languages; a console in
// English never loads the catalogue.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { splitMessages } from '../../build/messages.mjs';

const web = fileURLToPath(new URL('../../web', import.meta.url));
const sources = readdirSync(web, { recursive: true }).map(String).filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts')).map((f) => path.join(web, f));

/** The object literal each split call passes, evaluated: call n of `prefix` ends in `, "prefix n")`. */
function splitObjects(code: string, prefix: string, calls: number): Record<string, string>[] {
  return Array.from({ length: calls }, (_, n) => {
    const end = code.indexOf(`, ${JSON.stringify(prefix + n)})`);
    const start = code.lastIndexOf('defineMessages(', end) + 'defineMessages('.length;
    // (Through JSON: objects of another realm never deep-equal this one's.)
    return JSON.parse(JSON.stringify(vm.runInNewContext(`(${code.slice(start, end)})`)));
  });
}

test('a plain call loses its Chinese texts to the catalogue, in its keys’ order, and keeps the rest as written', async () => {
  const src = `import { defineMessages } from './i18n.ts';
// defineMessages({ 'in.comment': { zh: '注释', en: 'comment' } })
export const messages = defineMessages({
  'a.one': { zh: '一', en: 'One' },
  // a comment between entries
  "a.two": {
    zh: "二 \\"引号\\"",
    en: 'Two, it\\'s',
  },
  three: { en: \`Three\`, zh: \`三\` },
});
defineMessages({ 'b.x': { zh: 'X', en: 'x' } });
`;
  const { code, zh } = splitMessages(src, 'P');
  assert.equal(zh, [['一', '二 "引号"', '三'], ['X']]);
  assert.equal(splitObjects(code, 'P', 2), [{ 'a.one': 'One', 'a.two': "Two, it's", three: 'Three' }, { 'b.x': 'x' }]);
  assert.ok(code.includes("// defineMessages({ 'in.comment': { zh: '注释', en: 'comment' } })"), 'comments are left alone');
  assert.ok(code.includes('// a comment between entries'));
  await esbuild.transform(code, { loader: 'ts' });
});

test('a call that is not a plain literal of both languages keeps them', () => {
  for (const src of [
    "defineMessages({ 'a.b': { zh: `共 ${n} 条`, en: 'x' } });",
    "defineMessages({ 'a.b': { zh: '一', en: 'one' }, 'a.b': { zh: '二', en: 'two' } });",
    "defineMessages({ 404: { zh: '未找到', en: 'Not found' }, 'a.b': { zh: '一', en: 'one' } });",
    "defineMessages({ 'a.b': { zh: '一' } });",
    "defineMessages({ 'a.b': h('一', 'one') });",
    "defineMessages({ ...other, 'a.b': { zh: '一', en: 'one' } });",
    "defineMessages({ 'a.b': { zh: '一', en: 'one', hint: 'x' } });",
    'defineMessages(messages);',
    "  const inner = defineMessages({ 'a.b': { zh: '一', en: 'one' } });",
  ]) {
    const { code, zh } = splitMessages(src, 'P');
    assert.equal(zh, [], src);
    assert.is(code, src);
  }
});

test('every call of the console that the build splits comes back with the texts it registers', async () => {
  // The console's own registration, from the source, where every call has both languages.
  const { setLocale, t } = await import('../../web/lib/i18n.ts');
  for (const file of sources) if (/defineMessages\(/.test(readFileSync(file, 'utf8')) && !file.endsWith('main.tsx')) await import(file);
  // Placeholders as written (`{{count}}`), not filled in.
  const asWritten = new Proxy({}, { get: (_, name) => `{{${String(name)}}}` });
  let calls = 0;
  let texts = 0;
  const shadowed: string[] = [];
  for (const file of sources) {
    const src = readFileSync(file, 'utf8');
    const { code, zh } = splitMessages(src, 'P');
    if (!zh.length) continue;
    const objects = splitObjects(code, 'P', zh.length);
    objects.forEach((object, n) => {
      const keys = Object.keys(object);
      assert.is(keys.length, zh[n].length, `${file} call ${n}`);
      keys.forEach((key, i) => {
        // A key that is also the start of others (`explorer.sort`, `explorer.sort.name`) holds
        // those in rosetta's tree, not its own text: nothing to compare with.
        if (typeof t(key) !== 'string') return void shadowed.push(key);
        setLocale('en');
        assert.is(object[key], t(key, asWritten), `${file} ${key} en`);
        setLocale('zh');
        assert.is(zh[n][i], t(key, asWritten), `${file} ${key} zh`);
      });
      calls++;
      texts += keys.length;
    });
    await esbuild.transform(code, { loader: file.endsWith('x') ? 'tsx' : 'ts' });
  }
  setLocale('en');
  assert.ok(shadowed.length < 5, shadowed.join(' '));
  // Nearly all of them: those of the login page stay whole in the build, but are split here all the same.
  assert.ok(calls > 50 && texts > 1900, `${calls} calls, ${texts} texts`);
});

test('texts registered before the catalogue arrives get their Chinese with it, later ones at once; English loads nothing', async () => {
  // A module of its own: a console test before this one may have loaded the catalogue already.
  const own = '../../web/lib/i18n.ts?catalogue-test';
  const { defineMessages, loadCatalogue, setLocale, t } = (await import(own)) as typeof import('../../web/lib/i18n.ts');
  type Split = Parameters<typeof defineMessages>[0];
  let loads = 0;
  const load = async () => {
    loads++;
    return { zh: { T0: ['甲', '乙'], T1: ['丙'] } };
  };
  setLocale('en');
  await loadCatalogue(load);
  assert.is(loads, 0, 'English needs no catalogue');
  setLocale('zh');
  defineMessages({ 'catalogueTest.a': 'A', 'catalogueTest.b': 'B' } as unknown as Split, 'T0');
  assert.is(t('catalogueTest.a'), 'A', 'English until the catalogue is there');
  await loadCatalogue(load);
  await loadCatalogue(load);
  assert.is(loads, 1, 'loaded once');
  assert.equal([t('catalogueTest.a'), t('catalogueTest.b')], ['甲', '乙']);
  defineMessages({ 'catalogueTest.c': 'C' } as unknown as Split, 'T1');
  assert.is(t('catalogueTest.c'), '丙');
  setLocale('en');
  assert.equal([t('catalogueTest.a'), t('catalogueTest.c')], ['A', 'C']);
});

test.run();
