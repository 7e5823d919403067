// Writes fixtures/scopes/<version>.json: the API scope each minirest module of a broker release
// declares in its scopes/0 callback (a scope name for the whole module, or a map of path to
// scope), with the names of emqx_api_key_scopes.hrl resolved. Reads a git clone of emqx/emqx:
// `node tools/scopes/extract.mjs --repo <git dir> --tag e5.10.4 --version 5.10.4`. Facts only;
// what the simulator makes of them is simulator/store/dashboard/scopes.ts.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []));
if (!args.repo || !args.tag || !args.version) {
  console.error('usage: node tools/scopes/extract.mjs --repo <emqx git dir> --tag <tag> --version <version>');
  process.exit(2);
}
const git = (...cmd) => execFileSync('git', ['-C', args.repo, ...cmd], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

const header = git('show', `${args.tag}:apps/emqx_utils/include/emqx_api_key_scopes.hrl`);
const names = Object.fromEntries([...header.matchAll(/-define\((SCOPE_\w+),\s*<<"([^"]+)">>\)/g)].map((m) => [m[1], m[2]]));
const resolve = (macro) => {
  const name = names[macro];
  if (!name) throw new Error(`unknown scope macro ?${macro}`);
  return name;
};

const files = git('grep', '-l', '^scopes() ->', args.tag, '--', 'apps/*/src/*.erl', 'apps/*/src/*/*.erl').trim().split('\n');
const modules = {};
for (const file of files) {
  const source = git('show', file).replace(/%[^\n]*/g, '');
  const module = /-module\((\w+)\)/.exec(source)[1];
  const body = /^scopes\(\) ->([\s\S]*?)\.\s*$/m.exec(source)[1].trim();
  if (body.startsWith('?')) {
    modules[module] = resolve(body.slice(1).trim());
  } else if (body.startsWith('#{')) {
    modules[module] = Object.fromEntries([...body.matchAll(/(?:<<"([^"]+)">>|"([^"]+)")\s*=>\s*\?(\w+)/g)].map((m) => [m[1] ?? m[2], resolve(m[3])]));
  } else {
    throw new Error(`${file}: scopes/0 is neither a scope nor a map`);
  }
}
const sorted = Object.fromEntries(Object.keys(modules).sort().map((k) => [k, modules[k]]));
const out = path.join(fileURLToPath(new URL('../..', import.meta.url)), 'fixtures', 'scopes', `${args.version}.json`);
writeFileSync(out, `${JSON.stringify({ tag: args.tag, modules: sorted }, null, 1)}\n`);
console.log(`${out}: ${Object.keys(sorted).length} modules`);
