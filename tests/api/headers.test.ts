// Response headers and error bodies (security.md S14–S17, emqx-api-part1 §2.1): CSP and COOP on
// HTML, nosniff and no-referrer everywhere, no-store JSON with a charset on the API, no CORS,
// and generic 500 bodies.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; connect-src 'self' ws: wss:";

let staticDir = '';
let app: FastifyInstance;
let token = '';

test.before(async () => {
  staticDir = mkdtempSync(path.join(os.tmpdir(), 'sim-static-'));
  // Laid out as the build writes dist/ and as EMQX's dashboard folder (www/) holds it.
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>console</title>');
  mkdirSync(path.join(staticDir, 'static', 'chunks'), { recursive: true });
  writeFileSync(path.join(staticDir, 'static', 'main-AB12CD34.js'), 'console.log(1)');
  writeFileSync(path.join(staticDir, 'static', 'chunks', 'screens-EF56GH78.js'), 'console.log(2)');
  writeFileSync(path.join(staticDir, 'static', 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(staticDir, 'version'), 'v1');
  writeFileSync(path.join(staticDir, 'main-AB12CD34.js'), 'console.log(0)');
  app = await buildTestApp({ emqxVersion: '5.5.1', staticDir });
  // Fault injection for S17: a handler that crashes with a path in its message.
  app.get('/api/v5/__crash', { config: { public: true } }, async () => {
    throw new Error(`boom at ${path.join(os.tmpdir(), 'secret', 'file.ts')}`);
  });
  token = await login(app);
});

test.after(async () => {
  await app.close();
  rmSync(staticDir, { recursive: true, force: true });
});

function assertCommon(headers: Record<string, unknown>, what: string) {
  assert.is(headers['x-content-type-options'], 'nosniff', what);
  assert.is(headers['referrer-policy'], 'no-referrer', what);
  for (const name of Object.keys(headers)) assert.not.ok(name.startsWith('access-control-'), `${what}: ${name}`);
}

function assertApiJson(headers: Record<string, unknown>, what: string) {
  assertCommon(headers, what);
  assert.is(headers['content-type'], 'application/json; charset=utf-8', what);
  assert.is(headers['cache-control'], 'no-store', what);
  assert.is(headers['content-security-policy'], undefined, what);
}

test('the console page gets the exact CSP, COOP, nosniff and no-referrer (S14, S15)', async () => {
  for (const url of ['/']) {
    const res = await app.inject({ method: 'GET', url });
    assert.is(res.statusCode, 200, url);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.is(res.headers['content-security-policy'], CSP);
    assert.is(res.headers['cross-origin-opener-policy'], 'same-origin');
    assert.is(res.headers['cache-control'], 'no-cache');
    assertCommon(res.headers, url);
  }
});

test('hashed assets may be cached for a long time', async () => {
  for (const url of ['/static/main-AB12CD34.js', '/static/chunks/screens-EF56GH78.js']) {
    const res = await app.inject({ method: 'GET', url });
    assert.is(res.statusCode, 200, url);
    assert.match(String(res.headers['cache-control']), 'max-age=31536000');
    assertCommon(res.headers, url);
  }
  const icon = await app.inject({ method: 'GET', url: '/static/favicon.svg' });
  assert.is(icon.statusCode, 200);
  assert.is(icon.headers['cache-control'], 'no-cache');
});

// emqx_dashboard.erl static_dispatch (v5.5.1 and v5.8.9): "/" is www/index.html, "/static/[...]"
// is www/static/, and "/editor.worker.js", "/json.worker.js" and "/version" are files of www/.
// Every other path reaches emqx_dashboard_not_found: a 404, even for a file that is in www/.
test('only what EMQX serves of its dashboard folder is served: /, /static/… and three named files', async () => {
  const version = await app.inject({ method: 'GET', url: '/version' });
  assert.is(version.statusCode, 200);
  assert.is(version.body, 'v1');
  for (const url of ['/index.html', '/main-AB12CD34.js', '/chunks/screens-EF56GH78.js', '/static/../index.html', '/editor.worker.js']) {
    const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    assert.is(res.statusCode, 404, url);
  }
});

test('API answers 200, 400, 401, 404 and 500 all carry the API headers (S15)', async () => {
  const cases: Array<[number, () => Promise<{ statusCode: number; headers: Record<string, unknown> }>]> = [
    [200, () => api(app, 'GET', '/api/v5/nodes', { token })],
    [400, () => api(app, 'GET', '/api/v5/alarms?page=0', { token })],
    [401, () => api(app, 'GET', '/api/v5/nodes')],
    [404, () => api(app, 'GET', '/api/v5/no/such/path', { token })],
    [404, () => api(app, 'GET', '/api/v5/nodes/emqx@nowhere', { token })],
    [500, () => api(app, 'GET', '/api/v5/__crash')],
  ];
  for (const [status, call] of cases) {
    const res = await call();
    assert.is(res.statusCode, status);
    assertApiJson(res.headers, `status ${status}`);
  }
});

test('a crashing handler answers a generic 500 without stack or path (S17)', async () => {
  const res = await api(app, 'GET', '/api/v5/__crash');
  assert.is(res.statusCode, 500);
  assert.equal(res.json(), { code: 'INTERNAL_ERROR', message: 'Internal error' });
  assert.not.ok(res.body.includes('boom'));
  assert.not.ok(res.body.includes(os.tmpdir()));
});

test('an unknown API path is 404 NOT_FOUND "Request Path Not Found"', async () => {
  const res = await api(app, 'GET', '/api/v5/nothing-here', { token });
  assert.equal(res.json(), { code: 'NOT_FOUND', message: 'Request Path Not Found' });
});

// emqx_dashboard_not_found.erl (v5.5.1, v5.8.9): the Accept header's first type picks the body,
// JSON for application/json, text for text/plain, and HTML for anything else or none.
test('an unknown non-API path is JSON, text or HTML by the Accept header, HTML without one', async () => {
  const json = await app.inject({ method: 'GET', url: '/nothing.txt', headers: { accept: 'application/json' } });
  assert.is(json.statusCode, 404);
  assert.equal(json.json(), { code: 'NOT_FOUND', message: 'Request Path Not Found' });
  const text = await app.inject({ method: 'GET', url: '/nothing.txt', headers: { accept: 'text/plain' } });
  assert.is(text.statusCode, 404);
  assert.match(String(text.headers['content-type']), /^text\/plain/);
  assert.is(text.body, '404 - NOT FOUND');
  assertCommon(text.headers, 'text 404');
  for (const accept of ['text/html,application/xhtml+xml,*/*;q=0.8', '*/*', undefined]) {
    const html = await app.inject({ method: 'GET', url: '/nothing.txt', headers: accept ? { accept } : {} });
    assert.is(html.statusCode, 404, accept);
    assert.match(String(html.headers['content-type']), /^text\/html/, accept);
    assert.is(html.body, '<html><head><title>404 - NOT FOUND</title></head><body><h1>404 - NOT FOUND</h1></body></html>', accept);
    assertCommon(html.headers, `html 404 ${accept}`);
  }
});

test('invalid JSON is 400 BAD_REQUEST "Invalid json message received"', async () => {
  const res = await app.inject({
    method: 'POST', url: '/api/v5/login', headers: { 'content-type': 'application/json' }, payload: '{"username": "admin",',
  });
  assert.is(res.statusCode, 400);
  assert.equal(res.json(), { code: 'BAD_REQUEST', message: 'Invalid json message received' });
  assertApiJson(res.headers, 'invalid json');
});

test('schema failures are 400 BAD_REQUEST naming the field, never 500', async () => {
  const cases: Array<[string, string, unknown, string]> = [
    ['GET', '/api/v5/alarms?page=0', undefined, 'page'],
    ['GET', '/api/v5/alarms?limit=10001', undefined, 'limit'],
    ['GET', '/api/v5/alarms?limit=abc', undefined, 'limit'],
    ['POST', '/api/v5/login', { username: 'a'.repeat(101), password: 'x' }, 'username'],
    ['POST', '/api/v5/login', { username: 5, password: {} }, 'password'],
    ['PUT', '/api/v5/users/admin', {}, 'description'],
  ];
  for (const [method, url, body, field] of cases) {
    const res = await api(app, method as 'GET', url, { token, body });
    assert.is(res.statusCode, 400, url);
    assert.is(res.json().code, 'BAD_REQUEST', url);
    assert.match(res.json().message, field, url);
  }
});

test('OPTIONS with a foreign Origin gets no CORS allow header (S16)', async () => {
  for (const url of ['/api/v5/login', '/api/v5/nodes', '/']) {
    const res = await app.inject({
      method: 'OPTIONS', url,
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    assertCommon(res.headers, url);
  }
  const get = await app.inject({ method: 'GET', url: '/api/v5/nodes', headers: { origin: 'https://evil.example', authorization: `Bearer ${token}` } });
  assert.is(get.statusCode, 200);
  assertCommon(get.headers, 'GET with origin');
});

test('the root /status answers without credentials in text or JSON', async () => {
  const text = await app.inject({ method: 'GET', url: '/status' });
  assert.is(text.statusCode, 200);
  assert.is(text.body, 'Node emqx@node1 is started\nemqx is running');
  assertCommon(text.headers, '/status');
  const json = await app.inject({ method: 'GET', url: '/api/v5/status?format=json' });
  assert.equal(json.json(), { node_name: 'emqx@node1', rel_vsn: 'e5.5.1', broker_status: 'started', app_status: 'running' });
  assertApiJson(json.headers, '/api/v5/status');
});

test.run();
