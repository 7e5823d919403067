import { act } from 'preact/test-utils';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { REQUEST_TIMEOUT_MS } from '../../web/lib/api.ts';
import { restoreSession } from '../../web/lib/session.ts';
import { saveUser } from '../../web/lib/storage.ts';
import { fakeApi, type Call } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, submit, text, type, waitFor } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0, hasnext: false } } };
const NODES = { 'emqx@node1': 2048, 'emqx@node2': 0 };
const trace = (name: string, extra: Record<string, unknown> = {}) => ({
  name, type: 'clientid', clientid: `dev-${name}`, payload_encode: 'text', status: 'running',
  start_at: '2026-05-01T10:00:00+00:00', end_at: '2026-05-01T10:10:00+00:00', log_size: NODES, ...extra,
});
const list = [trace('t1'), trace('t2', { type: 'topic', clientid: undefined, topic: 'a/<b>/#', status: 'waiting' }), trace('t3', { status: 'stopped' })];

async function loggedIn(path = '/log-trace') {
  reset(path);
  await saveUser({ username: 'admin', token: 'tok-t' });
  await restoreSession();
}
const row = (name: string) => document.querySelector(`[data-test=trace-row][data-key="${name}"]`);
/** Picks an option as a user would (change event), letting the form re-render. */
async function choose(el: Element | null, value: string) {
  await act(async () => {
    (el as HTMLSelectElement).value = value;
    el!.dispatchEvent(new Event('change', { bubbles: true }));
  });
}
const calls = (api: { calls: Call[] }, method: string, path: string) => api.calls.filter((c) => c.method === method && c.path === path);

/** Stubs what a browser download needs and answers `/download` with a zip (or `reply`). */
function withDownloads(reply: (call: { path: string; signal?: AbortSignal | null }) => Promise<Response> | Response) {
  const saved: { name: string; size: number }[] = [];
  const fetch0 = globalThis.fetch;
  const create = URL.createObjectURL;
  const revoke = URL.revokeObjectURL;
  const click0 = HTMLAnchorElement.prototype.click;
  const blobs = new Map<string, Blob>();
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), location.href);
    return url.pathname.endsWith('/download') ? reply({ path: url.pathname.replace(/^.*\/api\/v5/, ''), signal: init?.signal }) : fetch0(input, init);
  }) as typeof fetch;
  URL.createObjectURL = (blob: Blob) => (blobs.set(`blob:${blobs.size}`, blob), `blob:${blobs.size - 1}`);
  URL.revokeObjectURL = () => undefined;
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, size: blobs.get(this.getAttribute('href') ?? '')?.size ?? -1 });
  };
  return {
    saved,
    restore() {
      globalThis.fetch = fetch0;
      URL.createObjectURL = create;
      URL.revokeObjectURL = revoke;
      HTMLAnchorElement.prototype.click = click0;
    },
  };
}

test.after.each(() => cleanup());

test('the list shows name, type, condition, times, status and log size per node; conditions are text', async () => {
  await loggedIn();
  const api = fakeApi({ 'GET /trace': { body: list }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => row('t3'));
  const first = row('t1')!.textContent!;
  for (const s of ['t1', 'Client ID', 'dev-t1', '2026-05-01', 'Running', 'emqx@node1: 2 KB', 'emqx@node2: 0 Byte']) assert.ok(first.includes(s), s);
  assert.ok(row('t2')!.textContent!.includes('a/<b>/#') && row('t2')!.textContent!.includes('Waiting'));
  assert.is(row('t2')!.querySelector('b'), null);
  assert.ok(row('t3')!.textContent!.includes('Stopped'));
  assert.ok(row('t1')!.querySelector('[data-test=trace-stop]'), 'a running trace can be stopped');
  assert.ok(row('t2')!.querySelector('[data-test=trace-stop]'), 'so can a waiting one');
  assert.not.ok(row('t3')!.querySelector('[data-test=trace-stop]'), 'not a stopped one');
  assert.not.ok(row('t2')!.querySelector('[data-test=trace-download]'), 'a waiting trace has nothing to download');
  assert.ok(row('t3')!.querySelector('[data-test=trace-download]'));
  assert.is(row('t1')!.querySelector('a')!.getAttribute('href'), '#/log-trace/detail/t1');
  assert.is(calls(api, 'GET', '/trace').length, 1);
  api.restore();
});

test('the list shows loading, then an error with retry, then the empty state', async () => {
  await loggedIn();
  let fail = true;
  const api = fakeApi({
    'GET /trace': () => (fail ? { status: 500, body: { code: 'INTERNAL_ERROR', message: 'boom' }, delay: 30 } : { body: [] }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('state-loading'));
  await waitFor(() => byTest('state-error'));
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => byTest('state-empty'));
  assert.ok(text().includes('No traces'));
  api.restore();
});

test('creating checks the required fields and that the end is after the start, then posts the trace', async () => {
  await loggedIn();
  let rows = [list[0]];
  const api = fakeApi({
    'GET /trace': () => ({ body: rows }),
    'POST /trace': (call) => ((rows = [...rows, trace('new1')]), { body: { ...(call.body as object), status: 'running', log_size: {} } }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('t1'));
  await click(byTest('trace-create'));
  const form = () => byTest('trace-create-form')!.querySelector('form')!;
  const field = (name: string) => form().querySelector<HTMLInputElement | HTMLSelectElement>(`[name=${name}]`)!;
  assert.is(field('type').value, 'clientid');
  assert.is(field('payload_encode').value, 'text');
  assert.ok(field('start_at').value && field('end_at').value, 'a ten-minute window is suggested');
  await type(field('start_at'), '');
  await type(field('end_at'), '');
  await submit(form());
  assert.is(byTest('error-name')!.textContent, 'Name is required');
  // One wording for required (issue #34): '<label> is required'.
  assert.is(byTest('error-clientid')!.textContent, 'Client ID is required');
  assert.is(byTest('error-start_at')!.textContent, 'Start time is required');
  assert.is(byTest('error-end_at')!.textContent, 'End time is required');
  await type(field('name'), '9lives');
  await type(field('start_at'), '2030-01-02T10:00');
  await type(field('end_at'), '2030-01-02T09:00');
  await submit(form());
  assert.match(byTest('error-name')!.textContent!, /Start with a letter/);
  assert.is(byTest('error-end_at')!.textContent, 'The end time must be later than the start time');
  // The condition is checked by type: a topic filter, then an IP address.
  await choose(field('type'), 'topic');
  assert.not.ok(form().querySelector('[name=clientid]'), 'one condition field, named by the type');
  await type(field('topic'), 'a/#/b');
  await submit(form());
  assert.match(byTest('error-topic')!.textContent!, /Invalid use of '#'/);
  await choose(field('type'), 'ip_address');
  await type(field('ip_address'), '10.0.0.300');
  await submit(form());
  assert.is(byTest('error-ip_address')!.textContent, 'Please enter a valid IP address');
  assert.is(calls(api, 'POST', '/trace').length, 0, 'nothing sent while invalid');

  await type(field('name'), 'new1');
  await type(field('ip_address'), ' 192.168.0.7 ');
  await type(field('end_at'), '2030-01-02T11:30');
  await choose(field('payload_encode'), 'hex');
  await submit(form());
  await waitFor(() => row('new1'));
  assert.equal(calls(api, 'POST', '/trace')[0].body, {
    name: 'new1', type: 'ip_address', ip_address: '192.168.0.7', payload_encode: 'hex',
    start_at: new Date('2030-01-02T10:00').toISOString(), end_at: new Date('2030-01-02T11:30').toISOString(),
  });
  assert.ok(text().includes('Trace created'));
  assert.not.ok(byTest('trace-create-form'));
  api.restore();
});

test('a server refusal is shown: a duplicate name and a passed end time', async () => {
  await loggedIn();
  const api = fakeApi({
    'GET /trace': { body: [list[0]] },
    'POST /trace': { status: 409, body: { code: 'ALREADY_EXISTS', message: 't1 Already Exists' } },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('t1'));
  await click(byTest('trace-create'));
  const form = byTest('trace-create-form')!.querySelector('form')!;
  await type(form.querySelector('[name=name]'), 't1');
  await type(form.querySelector('[name=clientid]'), 'dev-1');
  await submit(form);
  await waitFor(() => text().includes('t1 Already Exists'));
  assert.ok(byTest('trace-create-form'), 'the form stays open with the input');
  api.restore();
});

test('stop and delete ask first, call the API, toast and reload', async () => {
  await loggedIn();
  let rows = [list[0], list[2]];
  const api = fakeApi({
    'GET /trace': () => ({ body: rows }),
    'PUT /trace/t1/stop': () => ((rows = [{ ...list[0], status: 'stopped' }, list[2]]), { body: { enable: false, name: 't1' } }),
    'DELETE /trace/t3': () => ((rows = rows.filter((r) => r.name !== 't3')), { status: 204 }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('t1'));
  await click(row('t1')!.querySelector('[data-test=trace-stop]'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Stop the trace t1?'));
  await click(byTest('confirm-cancel'));
  assert.is(calls(api, 'PUT', '/trace/t1/stop').length, 0);
  await click(row('t1')!.querySelector('[data-test=trace-stop]'));
  await click(byTest('confirm-ok'));
  await waitFor(() => !row('t1')!.querySelector('[data-test=trace-stop]'));
  assert.ok(text().includes('Trace stopped'));
  await click(row('t3')!.querySelector('[data-test=trace-delete]'));
  await waitFor(() => text().includes('Delete the trace t3 and its log?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => !row('t3'));
  assert.ok(text().includes('Trace deleted'));
  api.restore();
});

test('download saves the zip under the content-disposition name; a time-out says so', async () => {
  await loggedIn();
  const api = fakeApi({ 'GET /trace': { body: [list[0]] }, 'GET /alarms': alarms });
  let slow = false;
  const browser = withDownloads(({ path, signal }) => {
    assert.is(path, '/trace/t1/download');
    if (!slow) return new Response(new Uint8Array([80, 75, 5, 6]), { status: 200, headers: { 'content-type': 'application/x-zip', 'content-disposition': 'attachment; filename=t1-from-server.zip' } });
    return new Promise<Response>((_resolve, reject) => signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
  });
  const setTimeout0 = globalThis.setTimeout;
  try {
    await mount(<App />);
    await waitFor(() => row('t1'));
    await click(row('t1')!.querySelector('[data-test=trace-download]'));
    await waitFor(() => browser.saved.length === 1);
    assert.equal(browser.saved[0], { name: 't1-from-server.zip', size: 4 });
    await waitFor(() => text().includes('Log downloaded'));
    // The 20 s request time-out, shortened: the download never answers.
    slow = true;
    globalThis.setTimeout = ((fn: () => void, ms?: number, ...rest: unknown[]) => setTimeout0(fn, ms === REQUEST_TIMEOUT_MS ? 5 : ms, ...rest)) as typeof setTimeout;
    await click(row('t1')!.querySelector('[data-test=trace-download]'));
    await waitFor(() => text().includes('The download of the trace log times out'));
    assert.ok(text().includes("server's trace data folder"));
    assert.is(browser.saved.length, 1);
  } finally {
    globalThis.setTimeout = setTimeout0;
    browser.restore();
    api.restore();
  }
});

const logPage = (items: string, position: number, bytes = 65536) => ({ body: { items, meta: { position, bytes } } });

test('the detail page reads the log by position and bytes, and follows a running trace', async () => {
  await loggedIn('/log-trace/detail/t1');
  const timers: (() => void)[] = [];
  const interval0 = globalThis.setInterval;
  globalThis.setInterval = ((fn: () => void, ms?: number) => (ms === 3000 && timers.push(fn), interval0(() => {}, 60_000))) as typeof setInterval;
  let log = 'line one <b>bold</b>\nline two\n';
  const api = fakeApi({
    'GET /trace': { body: list },
    'GET /trace/t1/log': (call) => {
      const position = Number(call.query.get('position'));
      const bytes = Number(call.query.get('bytes'));
      const chunk = log.slice(position, position + bytes);
      return logPage(chunk, position + chunk.length, bytes);
    },
    'GET /alarms': alarms,
  });
  try {
    await mount(<App />);
    await waitFor(() => byTest('trace-lines')?.textContent === log);
    assert.is(byTest('trace-name')!.textContent, 't1');
    assert.ok(byTest('trace-info')!.textContent!.includes('dev-t1'));
    assert.is(byTest('trace-lines')!.querySelector('b'), null, 'log lines are text');
    const reads = calls(api, 'GET', '/trace/t1/log').map((c) => Object.fromEntries(c.query));
    assert.equal(reads[0], { bytes: '65536', position: '0', node: 'emqx@node1' });
    // Fewer bytes than asked means the end: one request.
    assert.equal(reads.map((r) => r.position), ['0']);
    const end = String(log.length);
    assert.is(timers.length, 1, 'a running trace is followed');
    log += 'line three\n';
    timers[0]();
    await waitFor(() => byTest('trace-lines')!.textContent!.endsWith('line three\n'));
    assert.is(calls(api, 'GET', '/trace/t1/log').at(-1)!.query.get('position'), end);
  } finally {
    globalThis.setInterval = interval0;
    api.restore();
  }
});

test('the detail page switches node, reads until the end, and past 1 MB suggests downloading', async () => {
  await loggedIn('/log-trace/detail/t3');
  const big = 'x'.repeat(65536);
  const api = fakeApi({
    'GET /trace': { body: list },
    'GET /trace/t3/log': (call) => {
      const position = Number(call.query.get('position'));
      if (call.query.get('node') === 'emqx@node2') return logPage(position ? '' : 'node two\n', position ? 9 : 9);
      return logPage(big, position + big.length);
    },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('trace-too-long'));
  const node1 = calls(api, 'GET', '/trace/t3/log').filter((c) => c.query.get('node') === 'emqx@node1');
  assert.is(node1.length, 16, '16 chunks of 64 KB make 1 MB');
  assert.ok(text().includes('This log is long: the page shows the first 1 MB. Download it to see all of it.'));
  await click(byTest('trace-more'));
  await waitFor(() => calls(api, 'GET', '/trace/t3/log').length === 32);
  const select = byTest<HTMLSelectElement>('trace-node')!;
  await choose(select, 'emqx@node2');
  await waitFor(() => byTest('trace-lines')?.textContent === 'node two\n');
  assert.not.ok(byTest('trace-too-long'));
  api.restore();
});

test('the detail page: a waiting trace says so; an unknown trace offers the way back', async () => {
  await loggedIn('/log-trace/detail/t2');
  const api = fakeApi({ 'GET /trace': { body: list }, 'GET /trace/t2/log': logPage('', 0), 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('state-empty'));
  assert.ok(text().includes('The trace has not started yet'));
  cleanup();
  await loggedIn('/log-trace/detail/gone');
  await mount(<App />);
  await waitFor(() => byTest('trace-not-found'));
  assert.ok(text().includes('The trace does not exist'));
  await click(byTest('trace-not-found')!.querySelector('a'));
  await waitFor(() => route().startsWith('/log-trace'));
  api.restore();
});

test.run();
