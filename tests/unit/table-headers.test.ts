// Table headers must not break inside a word: the last `th` declarations in web/styles.css must
// not allow breaks anywhere (td keeps `overflow-wrap: anywhere` for long topics and ids).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';

const css = readFileSync(new URL('../../web/styles.css', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

/** The value `property` ends with for a plain `tag`, from the rules whose selector list names it. */
function finalValue(tag: string, property: string): string | undefined {
  let value: string | undefined;
  for (const chunk of css.split('}')) {
    const parts = chunk.split('{');
    if (parts.length < 2) continue;
    const selectors = parts[parts.length - 2].split(',').map((s) => s.trim());
    if (!selectors.includes(tag)) continue;
    const decl = parts[parts.length - 1].split(';').map((d) => d.split(':').map((x) => x.trim())).find(([name]) => name === property);
    if (decl) value = decl[1];
  }
  return value;
}

test('table headers wrap between words, never inside one', () => {
  assert.is.not(finalValue('th', 'overflow-wrap'), 'anywhere');
  assert.is.not(finalValue('th', 'word-break'), 'break-all');
  assert.is.not(finalValue('th', 'word-break'), 'break-word');
});

test('cells still break long unspaced values so tables fit', () => {
  assert.is(finalValue('td', 'overflow-wrap'), 'anywhere');
});

test.run();
