// The per-release data of the broker profiles is what tools/profiles/generate.mjs makes of the
// facts in ../shared/reference: regenerated here in memory and compared with the files in
// fixtures/profiles, so the data and the facts cannot drift apart.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OUT_DIR, generate, unusedRows } from '../../tools/profiles/generate.mjs';

test('fixtures/profiles is exactly what the generator makes of ../shared/reference', () => {
  const files = generate();
  assert.ok(files.size > 0);
  for (const [name, content] of files) {
    const stored = readFileSync(path.join(OUT_DIR, name), 'utf8');
    assert.ok(stored === content, `${name} differs from the facts: run node tools/profiles/generate.mjs`);
  }
});

test('the route data of each release names the handler module of each route', () => {
  for (const [name, content] of generate()) {
    if (!name.endsWith('api.json')) continue;
    const data = JSON.parse(content) as { routes: Record<string, { module: string }> };
    assert.ok(Object.keys(data.routes).length > 250, name);
    for (const [key, route] of Object.entries(data.routes)) {
      assert.match(key, /^(GET|POST|PUT|DELETE|PATCH) \//, name);
      assert.match(route.module, /^emqx_/, `${name} ${key}`);
    }
  }
});

test('every refinement, 5.8.9 patch and 5.10.4 decision of the generator takes effect', () => {
  assert.equal(unusedRows(), []);
});

test.run();
