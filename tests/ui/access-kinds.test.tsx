// Every authenticator and authorizer kind of the registries round-trips through the console
// (issue #4 acceptance 4, console half): the create form's POST body, answered back by GET with
// its secrets as "******", is PUT unchanged by the settings form. The cases come from
// AUTHN_KINDS / AUTHZ_KINDS, so a new kind is covered without touching this file.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { AUTHN_KINDS } from '../../web/features/access-control/authentication/kinds.ts';
import { AUTHZ_KINDS } from '../../web/features/access-control/authorization/kinds.ts';
import { toValues, type KindDecl } from '../../web/features/access-control/blocks.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { act } from 'preact/test-utils';
import { byTest, cleanup, click, mount, reset, submit, type, waitFor, signedInAt } from '../helpers/render.tsx';
import { parseProfile, walkFields } from '../../simulator/store/profile.ts';
import { isEnterprise, session } from '../../web/lib/session.ts';

type Obj = Record<string, unknown>;
const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const status = { body: { status: 'connected', metrics: { total: 0, allow: 0, deny: 0, nomatch: 0, success: 0, failed: 0, rate: 0, rate_max: 0, rate_last5m: 0 }, node_metrics: [], node_status: [] } };
const MASK = '******';

async function login(path: string) {
  await signedInAt(path);
}

/** Fills every visible required field that is still empty, and every secret, as a user would. */
async function fillRequired(form: HTMLElement, kind: KindDecl): Promise<void> {
  for (const field of kind.fields) {
    const input = form.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${field.name}"]`);
    if (!input || input.disabled) continue;
    if (field.kind === 'secret') await type(input, `secret-${field.name}`);
    else if (field.required && input.value === '') await type(input, field.kind === 'number' ? '7' : `value-${field.name}`);
  }
}

/** The body with every secret field of the kind answered as the broker does. */
function masked(body: Obj, kind: KindDecl): Obj {
  const copy = structuredClone(body);
  for (const field of kind.fields.filter((f) => f.kind === 'secret')) {
    const keys = field.name.split('.');
    const parent = keys.slice(0, -1).reduce<Obj | undefined>((at, key) => at?.[key] as Obj | undefined, copy);
    const last = keys[keys.length - 1];
    if (parent && typeof parent[last] === 'string' && parent[last] !== '') parent[last] = MASK;
  }
  return copy;
}


/** A choice in a kind's form that shows other fields (Mongo rs/sharded, Redis sentinel/cluster, LDAP bind, JWKS, TLS on …). */
interface Variant { field: string; value: string | boolean }

const shown = (kind: KindDecl, values: Obj) => kind.fields.filter((f) => !f.visible || f.visible(values)).map((f) => f.name).join();

/** The variants of a kind, found from its fields: every select option or switch that changes the visible fields. */
function variants(kind: KindDecl): Variant[] {
  const initial = toValues(kind.defaults, kind);
  const base = shown(kind, initial);
  const out: Variant[] = [];
  for (const field of kind.fields) {
    if (field.visible && !field.visible(initial)) continue;
    const values: (string | boolean)[] = field.kind === 'switch' ? [!initial[field.name]]
      : field.kind === 'select' ? (field.options ?? []).map((o) => o.value).filter((v) => v !== initial[field.name]) : [];
    for (const value of values) if (shown(kind, { ...initial, [field.name]: value }) !== base) out.push({ field: field.name, value });
  }
  return out;
}

const cases = (kinds: Record<string, KindDecl>) => Object.entries(kinds).flatMap(([id, kind]) =>
  [undefined, ...variants(kind)].map((variant) => ({ id, kind, variant, label: variant ? `${id} with ${variant.field}=${variant.value}` : id })));

/** Sets the variant's select or switch as a user would. */
async function applyVariant(form: HTMLElement, variant: Variant | undefined): Promise<void> {
  if (!variant) return;
  const control = form.querySelector<HTMLInputElement & HTMLSelectElement>(`[name="${variant.field}"]`)!;
  assert.ok(control, `${variant.field} is in the form`);
  if (typeof variant.value === 'boolean') {
    if (control.checked !== variant.value) await click(control);
  } else {
    await act(async () => {
      control.value = variant.value as string;
      control.dispatchEvent(new Event('change', { bubbles: true }));
    });
  }
}

/**
 * The fields of `body` that the signed-in broker's release lacks, by the simulator's profile
 * table (simulator/store/profile.ts): the console must never send them (hocon refuses unknown
 * fields). An unknown version is read as the oldest supported, 5.5.1, as the console does.
 */
function refusedBy(path: string, body: Obj): string[] {
  const profile = parseProfile(session.version || '5.5.1', isEnterprise() ? 'ee' : 'ce');
  const found: string[] = [];
  for (const fields of profile.missingFields(path)) walkFields(body, fields, (_holder, key) => found.push(key));
  return found;
}

const secretsOf = (kind: KindDecl) => kind.fields.filter((f) => f.kind === 'secret').map((f) => f.name);

for (const { id, kind, variant, label } of cases(AUTHN_KINDS)) {
  test(`authenticator ${label}: create → read back → settings saved unchanged equal the created config`, async () => {
    const [mechanism, backend] = id.split(':');
    const path = `/authentication/${encodeURIComponent(id)}`;
    await login('/authentication/create');
    let api = fakeApi({ 'GET /authentication': { body: [] }, 'POST /authentication': { body: {} }, 'GET /alarms': alarms });
    await mount(<App />);
    await waitFor(() => byTest(`choice-${mechanism}`));
    await click(byTest(`choice-${mechanism}`)!.querySelector('input'));
    await click(byTest('wizard-next'));
    if (backend) {
      await waitFor(() => byTest(`choice-${backend}`));
      await click(byTest(`choice-${backend}`)!.querySelector('input'));
      await click(byTest('wizard-next'));
    }
    const form = await waitFor(() => byTest('authn-config-form'));
    await applyVariant(form, variant);
    await fillRequired(form, kind);
    await submit(form);
    // A new built-in database has no users: Create asks first (authentication/refusals.ts).
    if (backend === 'built_in_database') await click(await waitFor(() => byTest('confirm-ok')));
    await waitFor(() => api.calls.some((c) => c.method === 'POST'));
    const created = api.calls.find((c) => c.method === 'POST')!.body as Obj;
    assert.equal(refusedBy('/authentication', created), [], 'fields the broker release lacks');
    assert.is(created.mechanism, mechanism);
    assert.is(created.backend, backend);
    if (variant) assert.equal(variant.field.split('.').reduce<unknown>((at, key) => (at as Obj | undefined)?.[key], created), variant.value, 'the variant was sent');
    // Secrets are sent as typed when created.
    for (const name of secretsOf(kind)) {
      const value = name.split('.').reduce<unknown>((at, key) => (at as Obj | undefined)?.[key], created);
      if (value !== undefined) assert.is(value, `secret-${name}`);
    }
    cleanup();
    api.restore();

    const stored = masked(created, kind);
    await login(`/authentication/detail/${encodeURIComponent(id)}?tab=settings`);
    api = fakeApi({
      [`GET ${path}`]: { body: { id, ...stored } },
      [`GET ${path}/status`]: status,
      [`PUT ${path}`]: { body: { id, ...stored } },
      'GET /alarms': alarms,
    });
    await mount(<App />);
    const settings = await waitFor(() => byTest('authn-settings-form'));
    await submit(settings);
    await waitFor(() => api.calls.some((c) => c.method === 'PUT'));
    assert.equal(api.calls.find((c) => c.method === 'PUT')!.body, stored);
    cleanup();
    api.restore();
  });
}

for (const { id: type, kind, variant, label } of cases(AUTHZ_KINDS)) {
  test(`authorizer ${label}: create → read back → settings saved unchanged equal the created config`, async () => {
    const path = `/authorization/sources/${type}`;
    await login('/authorization/create');
    let api = fakeApi({ 'GET /authorization/sources': { body: { sources: [] } }, 'POST /authorization/sources': { status: 204 }, 'GET /alarms': alarms });
    await mount(<App />);
    await waitFor(() => byTest(`choice-${type}`));
    await click(byTest(`choice-${type}`)!.querySelector('input'));
    await click(byTest('wizard-next'));
    const form = await waitFor(() => byTest('authz-config-form'));
    await applyVariant(form, variant);
    await fillRequired(form, kind);
    await submit(form);
    await waitFor(() => api.calls.some((c) => c.method === 'POST'));
    const created = api.calls.find((c) => c.method === 'POST')!.body as Obj;
    assert.equal(refusedBy('/authorization/sources', created), [], 'fields the broker release lacks');
    assert.is(created.type, type);
    assert.is(created.enable, true);
    if (variant) assert.equal(variant.field.split('.').reduce<unknown>((at, key) => (at as Obj | undefined)?.[key], created), variant.value, 'the variant was sent');
    cleanup();
    api.restore();

    const stored = masked(created, kind);
    await login(`/authorization/detail/${type}?tab=settings`);
    api = fakeApi({
      [`GET ${path}`]: { body: stored },
      [`GET ${path}/status`]: status,
      [`PUT ${path}`]: { status: 204 },
      'GET /alarms': alarms,
    });
    await mount(<App />);
    const settings = await waitFor(() => byTest('authz-settings-form'));
    await submit(settings);
    await waitFor(() => api.calls.some((c) => c.method === 'PUT'));
    assert.equal(api.calls.find((c) => c.method === 'PUT')!.body, stored);
    cleanup();
    api.restore();
  });
}

test('the registries are not empty (the cases above are generated from them)', () => {
  assert.ok(Object.keys(AUTHN_KINDS).length >= 9);
  assert.ok(Object.keys(AUTHZ_KINDS).length >= 8);
  assert.ok(Object.values(AUTHN_KINDS).some((k) => secretsOf(k).length > 0), 'some kind has a secret');
  // The variants the wizard offers are found, e.g. Mongo replica set and sharded, Redis sentinel and cluster.
  const mongo = variants(AUTHN_KINDS['password_based:mongodb']).filter((v) => v.field === 'mongo_type').map((v) => v.value);
  assert.equal(mongo.sort(), ['rs', 'sharded']);
  assert.equal(variants(AUTHN_KINDS['password_based:redis']).filter((v) => v.field === 'redis_type').map((v) => v.value).sort(), ['cluster', 'sentinel']);
  assert.ok(variants(AUTHN_KINDS.jwt).some((v) => v.field === 'use_jwks'));
});

test.after.each(() => cleanup());

test.run();
