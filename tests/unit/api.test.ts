import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, ApiError, cancelAll, pendingCount, prime, serializeParams, setTokenSource, withoutRequests } from '../../web/lib/api.ts';
import { failure, fakeApi } from '../helpers/fakeApi.ts';

test('empty params are dropped and arrays repeat the key', () => {
  assert.is(serializeParams({ a: undefined, b: null, c: '', d: 0, e: false, f: ['x', '', 'y'], g: 'h i' }), 'd=0&e=false&f=x&f=y&g=h+i');
});

test('requests go to api/v5 relative to the page with the Bearer token', async () => {
  setTokenSource(() => 'abc');
  const fake = fakeApi({ 'GET /users': { body: [{ username: 'admin' }] } });
  const users = await api.get<{ username: string }[]>('/users', { params: { like: undefined, page: 2 } });
  assert.equal(users, [{ username: 'admin' }]);
  assert.is(fake.calls[0].headers.get('authorization'), 'Bearer abc');
  assert.is(fake.calls[0].query.toString(), 'page=2');
  fake.restore();
  setTokenSource(() => undefined);
});

test('an EMQX error body becomes one ApiError with status, code and message', async () => {
  const fake = fakeApi({ 'DELETE /users/admin': { status: 400, body: { code: 'NOT_ALLOWED', message: 'Cannot delete self' } } });
  const error = await failure(api.del('/users/admin'));
  assert.instance(error, ApiError);
  assert.is(error.status, 400);
  assert.is(error.code, 'NOT_ALLOWED');
  assert.is(error.message, 'Cannot delete self');
  fake.restore();
});

test('no response at all is a NETWORK_ERROR "Network Error"', async () => {
  const original = globalThis.fetch;
  globalThis.fetch = (() => Promise.reject(new TypeError('fetch failed'))) as typeof fetch;
  const error = await failure(api.get('/nodes'));
  assert.is(error.code, 'NETWORK_ERROR');
  assert.is(error.message, 'Network Error');
  globalThis.fetch = original;
});

test('a caller signal aborts its request with ECONNABORTED', async () => {
  const fake = fakeApi({ 'GET /slow': { delay: 2000, body: {} } });
  const controller = new AbortController();
  const pending = failure(api.get('/slow', { signal: controller.signal }));
  controller.abort();
  const error = await pending;
  assert.is(error.code, 'ECONNABORTED');
  assert.is(fake.calls[0].signal?.aborted, true, 'the fetch itself was aborted');
  fake.restore();
});

test('cancelAll aborts every pending request', async () => {
  const fake = fakeApi({ 'GET /a': { delay: 2000, body: {} }, 'GET /b': { delay: 2000, body: {} } });
  const both = Promise.all([failure(api.get('/a')), failure(api.get('/b'))]);
  assert.is(pendingCount(), 2);
  cancelAll();
  const [a, b] = await both;
  assert.is(a.code, 'ECONNABORTED');
  assert.is(b.message, 'canceled');
  assert.is(pendingCount(), 0);
  fake.restore();
});

test('withoutRequests: nothing is sent and nothing settles while it runs, a primed answer stays for later, and requests go out again after', async () => {
  const fake = fakeApi({ 'GET /nodes': { body: [{ node: 'a' }] }, 'POST /users': { body: {} } });
  void prime('/nodes');
  assert.is(fake.calls.length, 1);
  let settled = false;
  const held = withoutRequests(() => [api.get('/nodes'), api.post('/users', { username: 'x' }), api.get('/monitor_current')]);
  for (const call of held) void call.then(() => (settled = true), () => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.is(fake.calls.length, 1, 'only the primed request went out');
  assert.is(settled, false);
  assert.is(pendingCount(), 0);
  // The primed answer was not taken by the held call: the screen's own first ask gets it.
  assert.equal(await api.get('/nodes'), [{ node: 'a' }]);
  assert.is(fake.calls.length, 1);
  assert.equal(await api.get('/nodes'), [{ node: 'a' }]);
  assert.is(fake.calls.length, 2);
  fake.restore();
});

test('a primed answer given `after` reaches its asker only once `after` has settled, failures too; the request itself leaves at once', async () => {
  const fake = fakeApi({ 'GET /nodes': { body: [{ node: 'a' }] }, 'GET /license': { status: 500, body: { code: 'INTERNAL_ERROR', message: 'x' } } });
  let open!: () => void;
  const after = new Promise<void>((resolve) => (open = resolve));
  void prime('/nodes', undefined, after);
  void prime('/license', undefined, after);
  assert.is(fake.calls.length, 2, 'both sent before `after`');
  const seen: string[] = [];
  const nodes = api.get('/nodes').then(() => seen.push('nodes'));
  const license = api.get('/license').then(() => seen.push('license?'), (error: ApiError) => seen.push(error.code));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(seen, [], 'answered, but held until `after`');
  open();
  await Promise.all([nodes, license]);
  assert.equal(seen.sort(), ['INTERNAL_ERROR', 'nodes']);
  assert.is(fake.calls.length, 2, 'the askers took the primed answers');
  fake.restore();
});

test('a 204 resolves with undefined and a JSON body is parsed', async () => {
  const fake = fakeApi({ 'POST /logout': { status: 204 }, 'POST /login': { body: { token: 't' } } });
  assert.is(await api.post('/logout', { username: 'a' }), undefined);
  assert.equal(await api.post('/login', {}), { token: 't' });
  assert.equal(fake.calls[0].body, { username: 'a' });
  fake.restore();
});

test.run();
