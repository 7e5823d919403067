// A detail screen whose object does not exist (a bookmark to one deleted since, a mistyped link)
// says so and links back to its list, instead of "Failed to load … Retry" that no retry can
// change. The broker's answers are the simulator's, which follow EMQX: 404 for each object here,
// and 400 for an authorization source type its schema does not know (the path is an enum).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { session } from '../../web/lib/session.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, route, signedInAt, text, waitFor } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const notFound = (message: string, code = 'NOT_FOUND') => ({ status: 404, body: { code, message } });

interface Case { at: string; request: string; reply: { status: number; body: unknown }; says: string; back: string; backText: string }
const CASES: Case[] = [
  { at: '/authentication/detail/absent', request: 'GET /authentication/absent', reply: notFound("Authenticator 'absent' does not exist"),
    says: 'There is no authenticator absent', back: '/authentication', backText: 'Back to Authentication' },
  { at: '/authorization/detail/ldap', request: 'GET /authorization/sources/ldap', reply: notFound('Not found: ldap'),
    says: 'There is no authorization source ldap', back: '/authorization', backText: 'Back to Authorization' },
  { at: '/schema-registry/detail/absent', request: 'GET /schema_registry/absent', reply: notFound('Schema not found'),
    says: 'There is no schema named absent', back: '/schema-registry', backText: 'Back to Schema Registry' },
  { at: '/connector/mqtt%3Aabsent', request: 'GET /connectors/mqtt:absent', reply: notFound("Connector lookup failed: connector named 'absent' of type mqtt does not exist."),
    says: 'There is no connector mqtt:absent', back: '/connector', backText: 'Back to Connectors' },
  { at: '/rule/actions/http%3Aabsent', request: 'GET /actions/http:absent', reply: notFound("Bridge lookup failed: bridge named 'absent' of type http does not exist."),
    says: 'There is no action http:absent', back: '/rule/actions', backText: 'Back to Actions (sinks)' },
  { at: '/rule/source/mqtt%3Aabsent', request: 'GET /sources/mqtt:absent', reply: notFound("Bridge lookup failed: bridge named 'absent' of type mqtt does not exist."),
    says: 'There is no source mqtt:absent', back: '/rule/source', backText: 'Back to Sources' },
  { at: '/listener/detail/tcp%3Aabsent', request: 'GET /listeners/tcp:absent', reply: notFound('Listener id not found', 'BAD_LISTENER_ID'),
    says: 'There is no listener tcp:absent', back: '/listener', backText: 'Back to Listeners' },
];

test.after.each(() => cleanup());

for (const c of CASES) {
  test(`${c.at}: "${c.says}" and the way back to the list`, async () => {
    await signedInAt(c.at);
    Object.assign(session, { version: '5.8.9', edition: 'ee' });
    const api = fakeApi({ [c.request]: c.reply, 'GET /alarms': alarms });
    await mount(<App />);
    const state = await waitFor(() => byTest('state-not-found'));
    assert.ok(api.calls.some((call) => `${call.method} ${call.path}` === c.request), `asked ${c.request}`);
    assert.ok(state.textContent!.includes(c.says), state.textContent!);
    assert.is(byTest('state-retry'), null, 'no retry for what does not exist');
    assert.is(byTest('state-back')!.textContent, c.backText);
    await click(byTest('state-back'));
    assert.is(route(), c.back);
    api.restore();
  });
}

test('/webhook/absent: a webhook the lists do not hold, and the way back', async () => {
  await signedInAt('/webhook/absent');
  const api = fakeApi({
    'GET /connectors': { body: [] }, 'GET /actions': { body: [] },
    'GET /rules': { body: { data: [], meta: { page: 1, limit: 100, count: 0, hasnext: false } } }, 'GET /alarms': alarms,
  });
  await mount(<App />);
  const state = await waitFor(() => byTest('state-not-found'));
  assert.ok(state.textContent!.includes('There is no webhook named absent'));
  await click(byTest('state-back'));
  assert.is(route(), '/webhook');
  api.restore();
});

test('an authorization source type the broker does not know: not found, its name as the heading', async () => {
  await signedInAt('/authorization/detail/absent');
  const api = fakeApi({
    'GET /authorization/sources/absent': { status: 400, body: { code: 'BAD_REQUEST', message: 'The value of type is not valid' } },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('state-not-found'));
  assert.ok(text().includes('There is no authorization source absent'));
  assert.is(document.querySelector('[data-test=authz-detail-page] h2')!.textContent, 'absent');
  assert.not.ok(text().includes('access.kind'), 'no message key on the page');
  api.restore();
});

test('a source type only the console does not know is shown, not called missing', async () => {
  await signedInAt('/authorization/detail/later_kind');
  const api = fakeApi({
    'GET /authorization/sources/later_kind': { body: { type: 'later_kind', enable: true } },
    'GET /authorization/sources/later_kind/status': { body: { status: 'connected', metrics: { total: 0, allow: 0, deny: 0, nomatch: 0 } } },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('authz-detail-page')!.querySelector('[role=tablist], .tabs'));
  assert.is(byTest('state-not-found'), null);
  assert.is(document.querySelector('[data-test=authz-detail-page] h2')!.textContent, 'later_kind');
  api.restore();
});

test('any other failure still offers a retry', async () => {
  await signedInAt('/connector/mqtt%3Aa');
  let reply = { status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: 'busy' } as unknown };
  const api = fakeApi({ 'GET /connectors/mqtt:a': () => reply, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('state-retry'));
  assert.is(byTest('state-not-found'), null);
  reply = notFound("Connector lookup failed: connector named 'a' of type mqtt does not exist.");
  await click(byTest('state-retry'));
  await waitFor(() => byTest('state-not-found'));
  api.restore();
});

test.run();
