import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, ApiError, cancelAll, pendingCount, prime, serializeParams, setTokenSource, holdReads } from '../../web/lib/api.ts';
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

test('holdReads: reads wait and writes leave; opened, the reads leave with the token of then and take what was primed in the same task; one aborted while held is rejected and never leaves; dropped, they never settle', async () => {
  const fake = fakeApi({ 'GET /nodes': { body: [{ node: 'a' }] }, 'GET /monitor_current': { body: { connections: 3 } }, 'POST /login': { body: { token: 't' } } });
  let token: string | undefined;
  setTokenSource(() => token);
  const reads = holdReads();
  const seen: unknown[] = [];
  const nodes = api.get('/nodes').then((data) => seen.push(data));
  const current = api.get('/monitor_current').then((data) => seen.push(data));
  assert.equal(await api.post('/login', {}), { token: 't' }, 'the sign-in leaves');
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(fake.calls.map((c) => c.method + ' ' + c.path), ['POST /login']);
  assert.equal(seen, []);
  token = 'abc';
  reads.open();
  void prime('/nodes');
  await Promise.all([nodes, current]);
  assert.equal(fake.calls.map((c) => c.method + ' ' + c.path).sort(), ['GET /monitor_current', 'GET /nodes', 'POST /login'], 'the held /nodes took the primed answer');
  assert.ok(fake.calls.slice(1).every((c) => c.headers.get('authorization') === 'Bearer abc'));
  // A held read whose signal aborts is rejected at once and never leaves.
  const again = holdReads();
  const controller = new AbortController();
  const aborted = api.get('/nodes', { signal: controller.signal }).then(() => 'answered', (error: unknown) => (error as Error).name);
  controller.abort();
  assert.is(await aborted, 'AbortError');
  again.open();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.is(fake.calls.length, 3, 'the aborted read did not leave once opened');
  // Dropped: what was held never leaves and never settles; later reads go as usual.
  const dropped = holdReads();
  let settled = false;
  void api.get('/nodes').then(() => (settled = true), () => (settled = true));
  dropped.drop();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.is(settled, false);
  assert.is(fake.calls.length, 3);
  assert.equal(await api.get('/nodes'), [{ node: 'a' }]);
  assert.is(fake.calls.length, 4);
  fake.restore();
  setTokenSource(() => undefined);
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
