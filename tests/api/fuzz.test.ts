// Issue #9 / security.md S8: every route of the table gets bodies, queries and path segments
// generated from its own JSON schema with random corruptions. The answer is never a 5xx, an
// error always has the EMQX `{code, message}` body, a corruption the schema forbids gets 400,
// and a refused write leaves the persisted state as it was. Routes without the schemas their
// input needs fail here, so a new route cannot skip validation.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RouteEntry } from '../../simulator/app.ts';
import { buildTestApp, login } from '../helpers/simulator.ts';
import { corruptedOf, jsonWithOverflow, type JsonSchema } from '../helpers/schema-arbitrary.ts';
import { EDITIONS, parseProfile, VERSIONS } from '../../simulator/store/profile.ts';

/** Every profile the simulator can be: each release with each edition it has. */
function profiles(): { emqxVersion: (typeof VERSIONS)[number]; edition: (typeof EDITIONS)[number] }[] {
  const out: { emqxVersion: (typeof VERSIONS)[number]; edition: (typeof EDITIONS)[number] }[] = [];
  for (const emqxVersion of VERSIONS) {
    for (const edition of EDITIONS) {
      try {
        parseProfile(emqxVersion, edition);
        out.push({ emqxVersion, edition });
      } catch {
        // A release without this edition.
      }
    }
  }
  return out;
}

const RUNS = 20;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const takesBody = (r: RouteEntry) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.noBody;
const multipart = (r: RouteEntry) => Array.isArray(r.schema?.consumes) && (r.schema!.consumes as string[]).includes('multipart/form-data');
const fuzzed = (routes: RouteEntry[]) => routes.filter((r) => !r.public && r.method !== 'HEAD' && r.url.startsWith('/api/v5') && r.url !== '/api/v5/logout');

/** What is wrong with an answer, or undefined. */
/**
 * Routes whose 400 is not the `{code, message}` body: a message transformation's dry run that
 * fails answers the run's failure context (`{msg: <tag>, …}`, emqx_message_transformation_http_api.erl
 * do_transformation_dryrun/1 and trace_failure_context_out/1 at e5.8.9 and 6.2.2).
 */
const FAILURE_CONTEXT = /\/message_transformations\/dryrun$/;

function problemOf(status: number, text: string, invalid: boolean, stateChanged: boolean, allow?: string, url = ''): string | undefined {
  if (status >= 500) return 'a 5xx';
  // A `..` segment can turn the path into another known one with other methods: minirest answers
  // 405 with an empty body and the allowed methods (corrections.md).
  if (status === 405) return text === '' && allow ? (stateChanged ? 'a refused write changed the state' : undefined) : 'a 405 without allow header or with a body';
  if (status >= 400) {
    let error: { code?: unknown; message?: unknown } = {};
    try {
      error = JSON.parse(text);
    } catch {
      return 'an error body that is not JSON';
    }
    const context = status === 400 && FAILURE_CONTEXT.test(url) && typeof (error as { msg?: unknown }).msg === 'string';
    if (!context && (typeof error.code !== 'string' || typeof error.message !== 'string')) return 'an error body without code and message';
    if (stateChanged) return 'a refused write changed the state';
  }
  if (invalid && status !== 400 && status !== 404) return 'input the schema forbids was not refused';
  return undefined;
}

test('every route declares the schemas of the input it takes', async () => {
  const app = await buildTestApp();
  await app.ready();
  const missing: string[] = [];
  for (const route of fuzzed(app.apiRoutes)) {
    const schema = route.schema ?? {};
    if (route.url.includes(':') && !schema.params) missing.push(`${route.method} ${route.url}: params`);
    if (takesBody(route) && !schema.body && !multipart(route)) missing.push(`${route.method} ${route.url}: body`);
  }
  assert.equal(missing, []);
  await app.close();
});

test('corrupted input never causes a 5xx on any profile, gets an EMQX error body, and a refused write changes nothing', async () => {
  // Issue #33 acceptance 3: over every profile, 0 distinct 5xx; the counts go to the log.
  const fiveXx = new Set<string>();
  const shapes = new Set<string>();
  let requests = 0;
  const all = profiles();
  for (const profile of all) {
    const app = await buildTestApp({ ...profile, seed: 'demo', loginRateLimit: { max: 1_000_000 } });
    const token = await login(app);
    await app.ready();
    for (const route of fuzzed(app.apiRoutes)) {
      const schema = route.schema ?? {};
      const bodyArb = takesBody(route) && schema.body && !multipart(route)
        ? corruptedOf(schema.body as JsonSchema)
        : fc.constant({ value: undefined, invalid: false, what: 'no body' });
      const segment = fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.constantFrom('\u0000', '💥', 'x'.repeat(300), '%', '..'));
      const query = schema.querystring ? corruptedOf(schema.querystring as JsonSchema) : fc.constant({ value: {}, invalid: false, what: 'no query' });
      await fc.assert(
        fc.asyncProperty(bodyArb, segment, query, async (body, value, q) => {
          const before = JSON.stringify(app.store.state);
          const url = route.url.replace(/:(\w+)/g, () => encodeURIComponent(value));
          const params = q.value && typeof q.value === 'object' && !Array.isArray(q.value)
            ? Object.fromEntries(Object.entries(q.value).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]))
            : {};
          const res = await app.inject({
            method: route.method as 'GET',
            url,
            query: params,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            payload: body.value === undefined ? undefined : jsonWithOverflow(body.value),
          });
          requests++;
          shapes.add(`${route.method} ${route.url} ${body.what} ${q.what}`);
          const where = `${profile.emqxVersion} ${profile.edition}: ${route.method} ${route.url} (${body.what}) → ${res.statusCode} ${res.body.slice(0, 200)}`;
          const problem = problemOf(res.statusCode, res.body, body.invalid, WRITES.has(route.method) && JSON.stringify(app.store.state) !== before, res.headers.allow as string | undefined, route.url);
          if (res.statusCode >= 500) fiveXx.add(`${route.method} ${route.url}`);
          // fast-check shrinks, then reports the counterexample; the reason is printed here.
          if (problem) console.error(`${problem}: ${where}`);
          return !problem;
        }),
        // FUZZ_SEED replays a reported run (fast-check prints the seed of a failure).
        { numRuns: RUNS, ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) },
      );
    }
    // Nothing above took the admin away.
    assert.type(await login(app), 'string');
    await app.close();
  }
  console.log(`API fuzz: ${requests} requests, ${shapes.size} distinct shapes, ${all.length} profiles (${all.map((p) => `${p.emqxVersion} ${p.edition}`).join(', ')}), ${fiveXx.size} distinct 5xx`);
  assert.equal([...fiveXx], []);
});

test.run();
