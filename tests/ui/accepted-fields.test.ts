// Every create and edit form of every declared resource, on every broker profile, sends only the
// fields that release accepts (issue #32 acceptance 4). Generated: each feature module that
// declares a ResourceDecl is loaded, each of its forms is filled with a value for every field and
// submitted against a recording fetch, and each body is checked against the simulator's field
// table for that profile (simulator/store/profile.ts FIELDS: what each release lacks, from its
// source). The bridge forms are drawn from the release's schema; their known case, an http action
// as 5.10.4 shows it edited on 6.2.2 (which lost local_topic and parameters.request_timeout), is
// checked the same way.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api } from '../../web/lib/api.ts';
import '../../web/lib/broker.ts';
import { session } from '../../web/lib/session.ts';
import { writeBody } from '../../web/features/integration/connectors/bridge.ts';
import type { FieldDecl, FormDecl, ResourceDecl } from '../../web/ui/resource.ts';
import { KINDS } from '../../web/features/management/gateways/kinds.ts';
import { FIELDS, PROFILES, parseProfile } from '../../simulator/store/profile.ts';
import { fakeApi, type Call } from '../helpers/fakeApi.ts';
import { REPO_ROOT } from '../helpers/simulator.ts';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

/** A value of the right kind for a field, so that no form is sent half empty. */
function sample(field: FieldDecl): unknown {
  switch (field.kind) {
    case 'number': return 1;
    case 'switch': return true;
    case 'select': return field.options?.[0]?.value ?? 'x';
    case 'duration': return '1s';
    case 'bytesize': return '1MB';
    case 'list': return ['a'];
    case 'datetime': return '2030-01-01T00:00:00.000Z';
    case 'password': case 'secret': return 'Passw0rd-1';
    default: return 'a1';
  }
}

/** The FIELDS row paths (`/actions/:id`) that a concrete path matches. */
function routesOf(concrete: string): string[] {
  const all = new Set(FIELDS.flatMap((row) => row.paths));
  return [...all].filter((route) => new RegExp(`^${route.replace(/:[^/]+/g, '[^/]+')}$`).test(concrete));
}

/** Whether `body` holds the field at `fieldPath` (`a/b`, `[]/a` for list items). */
function holds(body: unknown, fieldPath: string): boolean {
  const [head, ...rest] = fieldPath.split('/');
  if (head === '[]') return Array.isArray(body) && body.some((item) => holds(item, rest.join('/')));
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !Object.hasOwn(body, head)) return false;
  return rest.length === 0 || holds((body as Record<string, unknown>)[head], rest.join('/'));
}

/** The fields of `call`'s body that the profile's release does not know. */
function refused(call: Call, version: string, edition: string): string[] {
  const profile = parseProfile(version, edition);
  // A connector, action or source names its type in the body (create) or in its id (`type:name`).
  const given = (call.body as { type?: unknown } | undefined)?.type;
  const type = typeof given === 'string' ? given : (call.path.split('/')[2] ?? '').split(':')[0];
  return routesOf(call.path).flatMap((route) => profile.missingFields(route, type).filter((field) => holds(call.body, field)));
}

/** Arguments for the exported factories of declarations (a screen per gateway, per bridge kind …). */
const FACTORIES: Record<string, unknown[][]> = {
  declareSubjects: [['clients'], ['users']],
  declareUsers: [['password_based:built_in_database']],
  declareApiKeys: [[() => undefined]],
  declare: Object.entries(KINDS).map(([name, kind]) => [name, kind]),
  bridgeDecl: [['actions'], ['sources']],
};

const isDecl = (value: unknown): value is ResourceDecl<unknown> =>
  !!value && typeof value === 'object' && typeof (value as ResourceDecl<unknown>).list === 'function' && Array.isArray((value as ResourceDecl<unknown>).columns);

const declared: { where: string; form: FormDecl<unknown> }[] = [];
for (const file of sources(path.join(REPO_ROOT, 'web', 'features'))) {
  if (!readFileSync(file, 'utf8').includes('ResourceDecl<')) continue;
  const module = await import(file) as Record<string, unknown>;
  const decls: [string, ResourceDecl<unknown>][] = [];
  for (const [name, value] of Object.entries(module)) {
    if (isDecl(value)) decls.push([name, value]);
    else if (typeof value === 'function' && FACTORIES[name]) {
      for (const args of FACTORIES[name]) {
        const made = (value as (...a: unknown[]) => unknown)(...args);
        if (isDecl(made)) decls.push([`${name}(${typeof args[0] === 'string' ? args[0] : ''})`, made]);
      }
    }
  }
  for (const [name, decl] of decls) {
    const where = `${path.relative(REPO_ROOT, file)} ${name}`;
    if (decl.create) declared.push({ where: `${where} create`, form: decl.create });
    for (const action of decl.actions ?? []) if (action.form) declared.push({ where: `${where} ${action.key}`, form: action.form });
  }
}

/** Fills and submits every declared form as the given release, recording what was sent. */
async function submitAll(version: string, edition: string): Promise<{ sent: Call[]; where: Map<Call, string> }> {
  Object.assign(session, { version, edition, role: 'administrator', username: 'admin', token: 't' });
  const recorder = fakeApi({});
  const where = new Map<Call, string>();
  try {
    for (const { where: at, form } of declared) {
      const row = { name: 'n1', id: 'http:n1', username: 'u1', type: 'http' } as unknown;
      let initial: Record<string, unknown> = {};
      try {
        initial = form.initial?.(row) ?? {};
      } catch {
        initial = {};
      }
      const values: Record<string, unknown> = { ...initial };
      for (const field of form.fields) if (values[field.name] === undefined || values[field.name] === '') values[field.name] = sample(field);
      const before = recorder.calls.length;
      // A submit that asks a question first (a confirmation) is left waiting after what it sent.
      let waiting: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([form.submit(values, row).catch(() => undefined), new Promise((r) => (waiting = setTimeout(r, 300)))]);
      clearTimeout(waiting);
      for (const call of recorder.calls.slice(before)) where.set(call, at);
    }
    // The http action of 5.10.4, edited and saved back (BridgeForm's writeBody).
    const http = { type: 'http', name: 'a1', enable: true, connector: 'c1', local_topic: 't/#', parameters: { path: '/', method: 'post', request_timeout: '15s' }, resource_opts: {} };
    const before = recorder.calls.length;
    await api.put('/actions/http:a1', writeBody(http, false)).catch(() => undefined);
    await api.post('/actions', writeBody(http, true)).catch(() => undefined);
    for (const call of recorder.calls.slice(before)) where.set(call, 'BridgeForm http action');
  } finally {
    recorder.restore();
  }
  return { sent: recorder.calls.filter((c) => c.method !== 'GET' && c.body !== undefined), where };
}

test('the generator finds the declared forms (create and edit of users, API keys, rules, banned …)', () => {
  // 29 since the built-in database's rules are added as rows in one dialog (issue #34), a custom
  // editor rather than a declared create form.
  assert.ok(declared.length >= 29, `only ${declared.length} forms`);
  for (const part of ['system/users.ts users create', 'api-keys/apiKeys.tsx']) assert.ok(declared.some((d) => d.where.includes(part)), part);
});

for (const { version, edition } of PROFILES) {
  test(`${version}-${edition}: every form body holds only fields the release accepts`, async () => {
    const { sent, where } = await submitAll(version, edition);
    assert.ok(sent.length >= 21, `only ${sent.length} bodies were sent`);
    const problems = sent.flatMap((call) => refused(call, version, edition).map((field) => `${where.get(call)}: ${call.method} ${call.path} sends ${field}`));
    assert.equal(problems, []);
  });
}

test.run();
