// The stylesheet purge of the build (build/css-purge.mjs): what the source scan finds, how the
// CSS is parsed, which selectors, rules, at-blocks and keyframes are removed or kept, and how a
// stylesheet is split into the login page's part and the rest.
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
const { addSource, addThirdParty, canMatch, emptyUsage, parseCss, purgeCss, serialize, specificity, splitCss, subjectOf, splitSelectors, stringLiterals, stripComments } = purge as {
  addSource(usage: Usage, text: string, file?: string): void;
  addThirdParty(usage: Usage, text: string): void;
  canMatch(selector: string, usage: Usage): boolean;
  emptyUsage(): Usage;
  parseCss(css: string): unknown[];
  serialize(nodes: unknown[]): string;
  purgeCss(css: string, usage: Usage, options?: { keep?: RegExp[]; keyframesUsedElsewhere?: Iterable<string> }):
    { css: string; removedSelectors: string[]; removedKeyframes: string[] };
  specificity(selector: string): number[];
  subjectOf(selector: string): { tag: string; pseudo: string };
  splitCss(sheets: { css: string; usage: Usage | null }[], first: Usage, options?: { keep?: RegExp[]; keyframesUsedElsewhere?: Iterable<string> }):
    { first: string[]; later: string[]; copied: number; removedSelectors: string[]; removedKeyframes: string[] };
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

test('specificity: ids, classes, elements; :where() counts nothing, :is()/:not() their most specific argument', () => {
  const cases: [string, number[]][] = [
    ['a', [0, 0, 1]], ['.a .b', [0, 2, 0]], ['#x:hover', [1, 1, 0]], ['a::before', [0, 0, 2]], ['a:after', [0, 0, 2]],
    ['input:not([type=checkbox],[type=radio])', [0, 1, 1]], [':where([role=group]) input:not([type=checkbox])', [0, 1, 1]],
    [':is(h1,.t) span', [0, 1, 1]], ['li:nth-child(2n of .x)', [0, 2, 1]], ['*', [0, 0, 0]], ['svg|a', [0, 0, 1]],
  ];
  for (const [selector, expected] of cases) assert.equal(specificity(selector), expected, selector);
});

test('the subject of a selector: the element name and pseudo-element of its last compound', () => {
  const cases: [string, { tag: string; pseudo: string }][] = [
    ['a', { tag: 'a', pseudo: '' }], ['.a .b', { tag: '', pseudo: '' }], ['table > tr td.x', { tag: 'td', pseudo: '' }],
    ['button::before', { tag: 'button', pseudo: 'before' }], ['a:after', { tag: 'a', pseudo: 'after' }],
    ['[role=group] :is(a,b)', { tag: '', pseudo: '' }], ['.x>input[type="a b"]', { tag: 'input', pseudo: '' }],
    ['details summary::-webkit-details-marker', { tag: 'summary', pseudo: '-webkit-details-marker' }], ['svg|a', { tag: '', pseudo: '' }],
  ];
  for (const [selector, expected] of cases) assert.equal(subjectOf(selector), expected, selector);
});

test('a split keeps the first page’s rules first and puts the rest after, copying those that must stay behind a later rule', () => {
  const first = emptyUsage();
  addSource(first, 'export const Login = () => <article class="card"><input type="checkbox" /><button>x</button></article>;');
  const sheets = [
    { css: `:root{--a:1}article,table{margin:1px}.card button,.striped button{color:red}kbd{c:3}
      @media (min-width:1px){button{padding:4px}th{padding:5px}}@keyframes spin{to{f:6}}mark:-moz-focusring,button{g:7}`, usage: null },
    // The second sheet's `button` competes with nothing later; its `.card button` comes after
    // `.striped button` (same element, specificity and property family): it is copied. `td{margin}`
    // competes with nothing: `table{margin}` in `later` styles other elements.
    { css: 'button{outline:0}.card button{color:blue}article{margin:0}table{border:0}', usage: null },
  ];
  const split = splitCss(sheets, first);
  assert.equal(split.first.map(squash), [
    squash(':root{--a:1}article{margin:1px}.card button{color:red}@media (min-width:1px){button{padding:4px}}@keyframes spin{to{f:6}}mark:-moz-focusring,button{g:7}'),
    squash('button{outline:0}.card button{color:blue}article{margin:0}'),
  ]);
  assert.equal(split.later.map(squash), [
    squash('table{margin:1px}.striped button{color:red}kbd{c:3}@media (min-width:1px){th{padding:5px}}mark:-moz-focusring,button{g:7}'),
    squash('.card button{color:blue}table{border:0}'),
  ]);
  assert.is(split.copied, 2);
  // With a usage for the whole console, what it cannot match is removed first.
  const purged = splitCss([{ css: sheets[0].css, usage: usage() }], first);
  assert.is(squash(purged.later[0]), squash('table{margin:1px}.striped button{color:red}@media (min-width:1px){th{padding:5px}}mark:-moz-focusring,button{g:7}'));
  assert.ok(purged.removedSelectors.includes('kbd'));
  assert.throws(() => splitCss([{ css: 'a{b:1;&:hover{b:2}}', usage: null }], first), /nested rules/);
});

test('Pico and a console stylesheet split for a login form: the cascade of every element stays the one of the whole', () => {
  const pico = readFileSync(createRequire(import.meta.url).resolve('@picocss/pico/css/pico.min.css'), 'utf8');
  const app = readFileSync(new URL('../../web/styles.css', import.meta.url), 'utf8');
  const first = emptyUsage();
  addSource(first, 'export const Login = () => <main class="login-page"><article><form><input name="username" /><input type="password" /><button type="submit">Login</button></form></article></main>;');
  const whole = usage();
  addSource(whole, 'export const Login = () => <main class="login-page"><article><form><input name="username" /><input type="password" /><button type="submit">Login</button></form></article></main>;');
  addSource(whole, 'export const Shell = () => <div role="group" class="layout"><input name="q" /><button>Go</button><nav><ul><li>x</li></ul></nav><dialog open><table><tr><td>1</td></tr></table></dialog></div>;');
  const { first: early, later } = splitCss([{ css: pico, usage: whole }, { css: app, usage: null }], first);
  /** Every (context, selector, declarations) in order: the cascade as a list. */
  const entries = (css: string) => {
    const out: string[] = [];
    const walk = (nodes: { type: string; selectors?: string; body?: string | null; name?: string; prelude?: string; rules?: unknown[] | null }[], context: string) => {
      for (const node of nodes) {
        if (node.type === 'rule') for (const sel of splitSelectors(node.selectors!)) out.push([context, sel, squash(node.body!)].join(SEP));
        else if (node.rules) walk(node.rules as typeof nodes, `${context}@${node.name} ${node.prelude}`);
        else out.push([`${context}@${node.name} ${node.prelude}`, '', squash(node.body ?? '')].join(SEP));
      }
    };
    walk(parseCss(css) as Parameters<typeof walk>[0], '');
    return out;
  };
  const SEP = '\u0001';
  const reference = [...entries(purgeCss(pico, whole).css), ...entries(app)];
  // Selectors of one rule share its place: their relative order means nothing.
  const ruleOf: number[] = [];
  reference.forEach((entry, i) => ruleOf.push(i > 0 && entry.split(SEP)[2] === reference[i - 1].split(SEP)[2] && entry.split(SEP)[0] === reference[i - 1].split(SEP)[0] ? ruleOf[i - 1] : i));
  // Shipped: the first part, then the later part; each entry counts at its last place.
  const shipped = [...entries(early.join('\n')), ...entries(later.join('\n'))];
  const lastPlace = new Map<string, number>();
  shipped.forEach((entry, i) => lastPlace.set(entry, i));
  assert.equal([...new Set(shipped)].sort(), [...new Set(reference)].sort(), 'the same rules');
  // Two entries compete when they set one property family at one specificity; their order must hold.
  const family = (body: string) => body.split(';').map((d) => d.split(':')[0].trim().replace(/^-(webkit|moz|ms|o)-/, '')).filter(Boolean);
  const key = (entry: string) => {
    const [, sel, body] = entry.split(SEP);
    return { spec: sel ? specificity(sel).join(',') : 'none', props: sel ? family(body) : [], ...(sel ? subjectOf(sel) : { tag: '', pseudo: '' }) };
  };
  let checked = 0;
  for (let i = 0; i < reference.length; i++) {
    const a = key(reference[i]);
    for (let j = i + 1; j < reference.length; j++) {
      const b = key(reference[j]);
      if (ruleOf[i] === ruleOf[j] || a.spec !== b.spec || !a.props.some((p) => b.props.includes(p))) continue;
      // Only where both can style one element.
      if (a.pseudo !== b.pseudo || (a.tag && b.tag && a.tag !== b.tag)) continue;
      checked++;
      assert.ok(lastPlace.get(reference[i])! < lastPlace.get(reference[j])!, `${reference[i]} must stay before ${reference[j]}`);
    }
  }
  assert.ok(checked > 1000, `${checked} competing pairs checked`);
  assert.ok(early.join('').length < (purgeCss(pico, whole).css.length + app.length) * 0.7, 'the login page gets a fraction');
});

test.run();
