// The stylesheet purge of the build (build/css-purge.mjs): what the source scan finds, how the
// CSS is parsed, and which selectors, rules, at-blocks and keyframes are removed or kept.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { transformSync } from 'esbuild';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
// @ts-expect-error -- a plain ES module of the build, without type declarations
import * as purge from '../../build/css-purge.mjs';

interface Usage {
  tags: Set<string>;
  classes: Set<string>;
  classPrefixes: Set<string>;
  classSuffixes: Set<string>;
  attributes: Set<string>;
  values: Set<string>;
  words: Set<string>;
}
const { addSource, addThirdParty, canMatch, emptyUsage, parseCss, purgeCss, serialize, splitSelectors, stringLiterals, stripComments } = purge as {
  addSource(usage: Usage, text: string, file?: string): void;
  addThirdParty(usage: Usage, text: string): void;
  canMatch(selector: string, usage: Usage): boolean;
  emptyUsage(): Usage;
  parseCss(css: string): unknown[];
  serialize(nodes: unknown[]): string;
  purgeCss(css: string, usage: Usage, options?: { keep?: RegExp[]; keyframesUsedElsewhere?: Iterable<string> }):
    { css: string; removedSelectors: string[]; removedKeyframes: string[] };
  splitSelectors(list: string): string[];
  stringLiterals(src: string): { text: string; openLeft: boolean; openRight: boolean }[];
  stripComments(css: string): string;
};

/** A component source the tests scan: the usage every purge test works against. */
const COMPONENT = `
import { useState } from 'react';
// 'mark' in a comment is not a string
/* class="quoted" */
export function Card({ kind, level }: { kind: 'ok' | 'bad'; level: number }) {
  const [open, setOpen] = useState(false);
  const Heading = level === 1 ? 'h1' : 'h2';
  const re = /['"]nothing['"]/g;
  return (
    <article class={\`card tone-\${kind}\`} data-state={open ? 'open' : 'closed'}>
      <Heading>Don't panic</Heading>
      <button type="button" class="secondary outline" aria-busy={!open} onClick={() => setOpen(!open)}>x</button>
      <div role="group" className={'btn-' + kind}><input type="checkbox" role="switch" /></div>
      <table class="striped"><thead><tr><th>a</th></tr></thead></table>
    </article>
  );
}
export const link = () => { const a = document.createElement('a'); a.dataset.testId = 'x'; return a; };
`;

function usage(): Usage {
  const u = emptyUsage();
  addSource(u, COMPONENT, 'Card.tsx');
  return u;
}

const run = (css: string, options?: Parameters<typeof purgeCss>[2]) => purgeCss(css, usage(), options);
/** Whitespace-insensitive comparison of CSS text. */
const squash = (css: string) => css.replace(/\s+/g, ' ').replace(/\s*([{};,])\s*/g, '$1').trim();

test('the source scan finds elements, classes, attributes and values, not comments or regexes', () => {
  const u = usage();
  for (const tag of ['article', 'button', 'div', 'input', 'table', 'thead', 'tr', 'th', 'a', 'h1', 'h2', 'html', 'body']) assert.ok(u.tags.has(tag), tag);
  for (const tag of ['kbd', 'mark', 'nothing', 'heading']) assert.not.ok(u.tags.has(tag), tag);
  for (const cls of ['card', 'secondary', 'outline', 'striped']) assert.ok(u.classes.has(cls), cls);
  assert.not.ok(u.classes.has('quoted'));
  assert.not.ok(u.classes.has('nothing'));
  assert.ok(u.classPrefixes.has('tone-') && u.classPrefixes.has('btn-'), 'prefixes from a template and a concatenation');
  assert.ok(canMatch('.tone-ok', u) && canMatch('.btn-bad', u), 'classes assembled from a prefix');
  for (const attr of ['type', 'role', 'aria-busy', 'data-state', 'data-test-id', 'class']) assert.ok(u.attributes.has(attr), attr);
  for (const value of ['button', 'checkbox', 'switch', 'group', 'open', 'closed', 'true']) assert.ok(u.values.has(value), value);
  assert.not.ok(u.values.has('radio'));
});

test('string literals: quotes, escapes, templates with nested code, regexes and a stray apostrophe', () => {
  const parts = stringLiterals(`const a = 'x\\'y'; const b = "q"; const r = a / 2 / 3; const re = /"z"/;
    const t = \`p-\${cond ? 'in' : \`deep-\${1}\`}-s\`;
    <p>It's</p>;
    const after = 'kept';`);
  const texts = parts.map((p) => p.text);
  assert.ok(texts.includes("x'y"));
  assert.ok(texts.includes('q'));
  assert.not.ok(texts.some((t) => t.includes('z')), 'the regex is not a string');
  assert.ok(texts.includes('in') && texts.includes('deep-'));
  assert.equal(parts.find((p) => p.text === 'p-'), { text: 'p-', openLeft: false, openRight: true });
  assert.equal(parts.find((p) => p.text === '-s'), { text: '-s', openLeft: true, openRight: false });
  assert.ok(texts.includes('kept'), 'a stray quote in JSX text ends at the line break');
});

test('third-party code: words of its strings are possible elements, classes and values', () => {
  const u = emptyUsage();
  addThirdParty(u, `function n(t){return document.createElementNS(ns,t)}n("path");e.setAttribute("class","chart-legend");x.innerHTML='<span class="dot" title="t"></span>'`);
  for (const tag of ['path', 'span']) assert.ok(u.tags.has(tag), tag);
  assert.ok(u.classes.has('chart-legend') && u.classes.has('dot'));
  assert.ok(u.attributes.has('title') && u.attributes.has('class'));
});

test('used and unused element names', () => {
  const { css, removedSelectors } = run('article{margin:0}kbd{padding:1px}button>kbd{color:red}div kbd,div span{x:1}');
  assert.is(squash(css), 'article{margin:0}');
  assert.equal(removedSelectors, ['kbd', 'button>kbd', 'div kbd', 'div span']);
});

test('a selector list loses only the entries that cannot match', () => {
  const { css } = run('h1,h6,kbd{font-weight:700}th,tfoot td{padding:0}');
  assert.is(squash(css), 'h1{font-weight:700}th{padding:0}');
});

test('used and unused classes, ids and the universal selector', () => {
  const { css } = run('.secondary{a:1}.contrast{a:2}button.outline{a:3}button.contrast{a:4}#app{a:5}*{a:6}.card .tone-ok{a:7}');
  assert.is(squash(css), '.secondary{a:1}button.outline{a:3}#app{a:5}*{a:6}.card .tone-ok{a:7}');
});

test('attribute names and values', () => {
  const { css } = run(`[role=switch]{a:1}[role=search]{a:2}[type="checkbox" i]{a:3}[type=radio]{a:4}[aria-busy=true]{a:5}[data-tooltip]{a:6}
    [data-state^=op]{a:7}[title]{a:8}[aria-label="Main menu"]{a:9}`);
  assert.is(squash(css), '[role=switch]{a:1}[type="checkbox" i]{a:3}[aria-busy=true]{a:5}[data-state^=op]{a:7}');
});

test(':is() and :where() drop only when no entry can match; :not() and pseudo-elements never decide', () => {
  const { css } = run(`:where(kbd,samp){a:1}:is(kbd,button){a:2}:where(.contrast) button{a:3}button:not(.contrast,kbd){a:4}
    button::before{a:5}kbd::after{a:6}:is(div,span) :where([role=search]){a:7}div:has(> kbd){a:8}div:has(> input){a:9}`);
  assert.is(squash(css), ':is(kbd,button){a:2}button:not(.contrast,kbd){a:4}button::before{a:5}div:has(> input){a:9}');
});

test(':root blocks stay, :host never matches in a document', () => {
  const { css } = run(`:root{--a:1}:root:not([data-theme=dark]),:host(:not([data-theme=dark])){--b:2}:host{--c:3}
    :root:not([data-theme]) kbd{--d:4}`);
  assert.is(squash(css), ':root{--a:1}:root:not([data-theme=dark]){--b:2}');
});

test('nested @media and @supports are purged inside; empty blocks go', () => {
  const { css } = run(`@media (min-width:576px){article{a:1}kbd{a:2}}@media print{@supports (display:grid){kbd{a:3}}}
    @supports selector(:has(*)){@media (hover:hover){button{a:4}mark{a:5}}}@font-face{font-family:x;src:url(x.woff2)}@charset "utf-8";`);
  assert.is(squash(css), '@media (min-width:576px){article{a:1}}@supports selector(:has(*)){@media (hover:hover){button{a:4}}}@font-face{font-family:x;src:url(x.woff2)}@charset "utf-8";');
});

test('@keyframes stay while a kept rule, another stylesheet or the source names them', () => {
  const css = `@keyframes spin{from{transform:rotate(0)}to{transform:rotate(1turn)}}@keyframes blink{50%{opacity:0}}
    @keyframes fade{to{opacity:0}}@keyframes closed{to{opacity:1}}@-webkit-keyframes slide{to{left:0}}
    button{animation:spin 1s linear infinite}kbd{animation-name:blink}`;
  const result = run(css, { keyframesUsedElsewhere: ['fade'] });
  assert.is(squash(result.css), squash(`@keyframes spin{from{transform:rotate(0)}to{transform:rotate(1turn)}}@keyframes fade{to{opacity:0}}
    @keyframes closed{to{opacity:1}}button{animation:spin 1s linear infinite}`));
  assert.equal(result.removedKeyframes.sort(), ['blink', 'slide']);
});

test('escaped characters in selectors', () => {
  const u = usage();
  u.classes.add('w-1/2');
  u.classes.add('a:b');
  u.classes.add('10');
  const { css } = purgeCss('.w-1\\/2{a:1}.a\\:b{a:2}.\\31 0{a:3}.a\\:c{a:4}\\61rticle{a:5}\\6b bd{a:6}', u);
  assert.is(squash(css), '.w-1\\/2{a:1}.a\\:b{a:2}.\\31 0{a:3}\\61rticle{a:5}');
});

test('strings and url() holding braces, commas and comment marks', () => {
  const source = `button::after{content:"{,}"}kbd::after{content:'}'}[data-state="a,b{"],kbd{a:1}
    article{background:url(data:image/svg+xml;utf8,<svg>{}</svg>)}/* kbd{a:2} } */div{content:"/* not a comment */"}`;
  const { css } = run(source);
  assert.is(squash(css), squash(`button::after{content:"{,}"}[data-state="a,b{"]{a:1}article{background:url(data:image/svg+xml;utf8,<svg>{}</svg>)}div{content:"/* not a comment */"}`));
  assert.equal(splitSelectors('[title="a,b"],a:is(b,c),d\\,e'), ['[title="a,b"]', 'a:is(b,c)', 'd\\,e']);
  assert.is(stripComments('a{b:"/*x*/"}/*y*/c{}'), 'a{b:"/*x*/"}c{}');
});

test('a list with a vendor pseudo is kept whole, and the keep-list wins', () => {
  const { css } = run('button::-moz-focus-inner,kbd::-moz-focus-inner{a:1}kbd::-webkit-x,samp::-webkit-x{a:2}.modal-is-open{a:3}', { keep: [/^\.modal-is-/] });
  assert.is(squash(css), 'button::-moz-focus-inner,kbd::-moz-focus-inner{a:1}.modal-is-open{a:3}');
});

test('rules the parser does not understand are kept', () => {
  const { css } = run('kbd{color:red;&:hover{color:blue}}@-moz-document url-prefix(){kbd{a:1}}@page{margin:0}');
  assert.is(squash(css), squash('kbd{color:red;&:hover{color:blue}}@-moz-document url-prefix(){kbd{a:1}}@page{margin:0}'));
});

test('malformed CSS fails loudly instead of being cut', () => {
  assert.throws(() => parseCss('a{b:1'), /unclosed block/);
  assert.throws(() => parseCss('a{b:1}}'), /unexpected }/);
});

test('Pico itself parses and writes back to the same stylesheet', () => {
  const pico = readFileSync(createRequire(import.meta.url).resolve('@picocss/pico/css/pico.min.css'), 'utf8');
  const minify = (css: string) => transformSync(css, { loader: 'css', minify: true, legalComments: 'none', logLevel: 'silent' }).code;
  assert.is(minify(serialize(parseCss(pico))), minify(pico));
  // With every word counted as used, only the :host selectors (shadow trees) go.
  const all = emptyUsage();
  for (const word of pico.match(/-?[A-Za-z_][\w-]*/g) ?? []) {
    all.tags.add(word.toLowerCase());
    all.classes.add(word);
    all.attributes.add(word.toLowerCase());
    all.values.add(word.toLowerCase());
    all.words.add(word);
  }
  const { removedSelectors, removedKeyframes } = purgeCss(pico, all);
  assert.ok(removedSelectors.length > 0);
  assert.equal(removedSelectors.filter((s) => !/^(:where\()?:host\b/.test(s)), []);
  assert.equal(removedKeyframes, []);
});

test.run();
