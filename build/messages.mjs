// The Chinese texts of the lazily loaded modules, moved out of their chunks into one catalogue
// that loads with the shell when the console is in Chinese (web/lib/i18n.ts, loadCatalogue).
//
// A feature writes its messages as `defineMessages({ 'users.title': { zh: '用户', en: 'Users' } })`,
// so every chunk carried both languages: 23.5 KB gzip of Chinese spread over twenty chunks, each
// compressed apart. One catalogue of the texts alone, in the order of their keys, compresses to
// little more than half of that, and a console in English never loads it. `splitMessages` takes a
// module's source and gives it back with each such call's pairs replaced by their English texts
// and the call's name in the catalogue (`defineMessages({ 'users.title': 'Users' }, 'Xk2')`), and the texts
// of each call in its keys' order. It takes only calls written as that plain literal, one per
// statement at the start of a line, with no key twice and none that JavaScript would reorder (a
// whole number); anything else is left as it is, both languages in place.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

/** A call at the start of a statement: `defineMessages({`, `export const x = defineMessages({`. */
const CALL = /^(?:export\s+)?(?:(?:const|let)\s+[A-Za-z_$][\w$]*\s*=\s*)?defineMessages\(\{/gm;

/**
 * Reads the literal object of one call from `start` (just after its `{`): the entries as
 * `{ key, zh, en, enRaw, from, to }` (`from`–`to`: the range of the pair `{ zh: …, en: … }`) and the
 * index after the call's closing `)`, or null when it is not exactly `{ key: { zh: STRING, en: STRING }, … })`.
 */
export function readCall(src, start) {
  let i = start;
  const entries = [];
  const space = () => {
    for (;;) {
      const m = /^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)/.exec(src.slice(i, i + 4096));
      if (!m || m[0].length === 0) return;
      i += m[0].length;
    }
  };
  const literal = () => {
    const m = /^(?:'(?:[^'\\\n]|\\[\s\S])*'|"(?:[^"\\\n]|\\[\s\S])*"|`(?:[^`\\$]|\\[\s\S]|\$(?!\{))*`)/.exec(src.slice(i));
    if (!m) return null;
    i += m[0].length;
    return { text: vm.runInNewContext(m[0]), raw: m[0] };
  };
  const name = () => {
    const m = /^[A-Za-z_$][\w$]*/.exec(src.slice(i));
    if (!m) return null;
    i += m[0].length;
    return m[0];
  };
  const expect = (c) => {
    space();
    if (src[i] !== c) return false;
    i++;
    return true;
  };
  for (;;) {
    space();
    if (src[i] === '}') break;
    const key = src[i] === "'" || src[i] === '"' ? literal()?.text : name();
    if (key === null || key === undefined || !expect(':')) return null;
    space();
    const from = i;
    if (!expect('{')) return null;
    const pair = {};
    let enRaw = '';
    for (let n = 0; n < 2; n++) {
      space();
      const lang = name();
      if ((lang !== 'zh' && lang !== 'en') || lang in pair || !expect(':')) return null;
      space();
      const value = literal();
      if (!value) return null;
      pair[lang] = value.text;
      if (lang === 'en') enRaw = value.raw;
      if (!expect(',') && n === 0) return null;
    }
    if (!expect('}')) return null;
    entries.push({ key, zh: pair.zh, en: pair.en, enRaw, from, to: i });
    if (!expect(',')) {
      space();
      if (src[i] !== '}') return null;
      break;
    }
  }
  i++; // the object's `}`
  if (!expect(')')) return null;
  const keys = entries.map((e) => e.key);
  if (!entries.length || new Set(keys).size !== keys.length || keys.some((k) => /^(?:0|[1-9]\d*)$/.test(k))) return null;
  return { entries, end: i };
}

/**
 * The module's source with the Chinese texts of its plain `defineMessages` calls taken out, and
 * those texts, one list per call; call n is named `${prefix}${n}` in the catalogue.
 * @returns {{ code: string, zh: string[][] }}
 */
export function splitMessages(src, prefix = '') {
  const zh = [];
  let out = '';
  let last = 0;
  for (const m of src.matchAll(CALL)) {
    const call = readCall(src, m.index + m[0].length);
    if (!call || m.index < last) continue;
    out += src.slice(last, m.index + m[0].length);
    let at = m.index + m[0].length;
    for (const e of call.entries) {
      // The pair becomes its English text alone.
      out += src.slice(at, e.from) + e.enRaw;
      at = e.to;
    }
    // `…})` becomes `…}, N)`.
    const close = src.lastIndexOf(')', call.end - 1);
    out += `${src.slice(at, close)}, ${JSON.stringify(prefix + zh.length)})`;
    last = call.end;
    zh.push(call.entries.map((e) => e.zh));
  }
  return { code: out + src.slice(last), zh };
}

/**
 * The catalogue as a build step (build.mjs applies `transform` to every web/ module it loads):
 * the modules outside the login page's static imports lose their Chinese texts to
 * web/lib/catalogue.ts. Each module's calls are named after a short hash of its path, so a
 * change in one module leaves the others' chunks as they were.
 */
export function zhCatalogue({ root }) {
  const CATALOGUE = 'web/lib/catalogue.ts';
  let split = new Map();
  let texts = {};
  const report = { calls: 0, texts: 0 };
  return {
    report,
    /** Splits every module the login page does not load; `login` is the set of those it does. */
    start(graph, login) {
      split = new Map();
      texts = {};
      const names = new Map();
      for (const file of Object.keys(graph).filter((f) => /^web\/.*\.tsx?$/.test(f) && f !== CATALOGUE && !login.has(f)).sort()) {
        const name = createHash('sha256').update(file).digest('base64url').replace(/[-_]/g, '').slice(0, 3);
        if (names.has(name)) throw new Error(`catalogue names collide: ${file} and ${names.get(name)} (lengthen them in build/messages.mjs)`);
        names.set(name, file);
        const { code, zh } = splitMessages(readFileSync(path.join(root, file), 'utf8'), name);
        if (!zh.length) continue;
        split.set(file, code);
        zh.forEach((list, n) => (texts[name + n] = list));
      }
      report.calls = Object.keys(texts).length;
      report.texts = Object.values(texts).flat().length;
    },
    transform(file, source) {
      if (file === CATALOGUE) return `export const zh = ${JSON.stringify(texts)};\n`;
      return split.get(file) ?? source;
    },
  };
}
