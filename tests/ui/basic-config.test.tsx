// Basic Config against a fake broker: the zone and dashboard tabs load their endpoints and save
// through the config page pattern; the configuration file tab shows GET /configs as HOCON with
// line numbers, downloads it, saves edits as text/plain with mode=merge after a confirmation,
// shows the broker's errors in words, and resets the chosen root after a confirmation.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { act } from 'preact/test-utils';
import { App } from '../../web/app/App.tsx';
import { setLocale } from '../../web/lib/i18n.ts';
import { clearSchemas } from '../../web/lib/schemas.ts';
import { schemaDocument } from '../../simulator/schemas/index.ts';
import { hoconTokens } from '../../web/features/system/config/BasicConfigPage.tsx';
import { fakeApi, type Call } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, signedInAt, submit, text, type, waitFor } from '../helpers/render.tsx';

const hotconf = JSON.parse(schemaDocument('hotconf'));
const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const zone = {
  mqtt: { idle_timeout: '15s', max_packet_size: '1MB' },
  flapping_detect: { enable: false, window_time: '1m', max_count: 15, ban_time: '5m' },
  force_shutdown: { enable: true, max_mailbox_size: 1000, max_heap_size: '32MB' },
  force_gc: { enable: true, count: 16000, bytes: '16MB' },
};
const dashboard = {
  listeners: {
    http: { bind: '0', num_acceptors: 8, max_connections: 512, backlog: 1024, send_timeout: '10s', inet6: false, ipv6_v6only: false, proxy_header: false },
    https: { bind: '0', ssl_options: { certfile: 'cert.pem', keyfile: 'key.pem' }, num_acceptors: 8, max_connections: 512, backlog: 1024, send_timeout: '10s', inet6: false, ipv6_v6only: false, proxy_header: false },
  },
  token_expired_time: '60m', cors: false, sso: { ldap: { enable: false } }, default_password: '******',
};
const WHOLE = 'sys_topics {\n  sys_msg_interval = 1m\n  sys_heartbeat_interval = 30s\n}\nlog {\n  console {\n    level = warning\n  }\n}\n';
const ONE = 'sys_topics {\n  sys_msg_interval = 1m\n  sys_heartbeat_interval = 30s\n}\n';

let restore = () => {};

/**
 * The fake broker behind fetch. fakeApi reads request bodies as JSON; the configuration file is
 * sent as HOCON text, so a text body is handed to it JSON-encoded and recorded as the string.
 */
async function open(path: string, routes: Parameters<typeof fakeApi>[0], locale: 'en' | 'zh' = 'en') {
  await signedInAt(path);
  setLocale(locale);
  clearSchemas();
  const api = fakeApi({
    'GET /alarms': alarms, 'GET /schemas/hotconf': { body: hotconf },
    'GET /configs': (c) => (c.headers.get('accept') === 'text/plain'
      ? { body: c.query.get('key') === 'sys_topics' ? ONE : WHOLE }
      : { body: { sys_topics: {}, log: {} } }),
    ...routes,
  });
  const fake = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init: RequestInit = {}) => {
    const textBody = typeof init.body === 'string' && new Headers(init.headers).get('content-type') === 'text/plain';
    return fake(input, textBody ? { ...init, body: JSON.stringify(init.body) } : init);
  }) as typeof fetch;
  restore = api.restore;
  await mount(<App />);
  return api;
}

test.after.each(() => {
  cleanup();
  restore();
});

const writes = (calls: Call[]) => calls.filter((c) => c.method !== 'GET');
const editor = () => byTest<HTMLTextAreaElement>('config-file-editor-input');
async function choose(select: HTMLSelectElement, value: string) {
  await act(async () => {
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

test('the zone tab is the default: force shutdown and force GC of the global zone, saved under their keys', async () => {
  const api = await open('/basic-config', { 'GET /configs/global_zone': { body: zone }, 'PUT /configs/global_zone': (c) => ({ body: c.body }) });
  await waitFor(() => byTest('config-force-gc-form'));
  assert.ok(byTest('config-force-shutdown-form'));
  assert.ok(text().includes('Basic Config'));
  assert.ok(text().includes('Force Shutdown'));
  assert.ok(text().includes('Max Mailbox Size'));
  assert.is(byTest('tab-/basic-config?tab=zone')?.getAttribute('aria-selected'), 'true');
  await type(byTest('field-max_mailbox_size'), '2000');
  await submit(byTest('config-force-shutdown-form'));
  await waitFor(() => text().includes('Configuration saved'));
  assert.equal(writes(api.calls).map((c) => [c.method, c.path, c.body]), [['PUT', '/configs/global_zone', { force_shutdown: { ...zone.force_shutdown, max_mailbox_size: 2000 } }]]);
});

test('the dashboard tab edits token expiry, CORS and the listeners and sends the rest back unchanged', async () => {
  const api = await open('/basic-config?tab=dashboard', { 'GET /configs/dashboard': { body: dashboard }, 'PUT /configs/dashboard': (c) => ({ body: c.body }) });
  await waitFor(() => byTest('config-dashboard-form'));
  assert.ok(text().includes('Token Expiry Time'));
  assert.ok(text().includes('HTTP Listener'));
  assert.ok(byTest('field-listeners.http.num_acceptors'));
  assert.not.ok(byTest('field-sso.ldap.enable'), 'single sign-on is not on this tab');
  await type(byTest('field-listeners.http.num_acceptors'), '4');
  await submit(byTest('config-dashboard-form'));
  await waitFor(() => text().includes('Configuration saved'));
  const [put] = writes(api.calls);
  assert.is(put.path, '/configs/dashboard');
  assert.equal(put.body, { ...dashboard, listeners: { ...dashboard.listeners, http: { ...dashboard.listeners.http, num_acceptors: 4 } } });
});

test('the file tab shows the HOCON with line numbers; the root selector loads one root; download names the file', async () => {
  const api = await open('/basic-config?tab=file', {});
  await waitFor(() => editor()?.value === WHOLE);
  assert.is(editor()!.readOnly, true, 'read-only until Edit');
  assert.is(byTest('config-file-editor')!.querySelectorAll('.code-gutter li').length, 12);
  assert.ok(byTest('config-file-editor')!.querySelector('.tok-number, .tok-operator'), 'highlighted');
  assert.is(byTest<HTMLButtonElement>('config-file-reset')!.disabled, true, 'reset needs a root');
  const create = URL.createObjectURL;
  const click0 = HTMLAnchorElement.prototype.click;
  const saved: string[] = [];
  let blob: Blob | undefined;
  URL.createObjectURL = (b: Blob) => ((blob = b), 'blob:x');
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    saved.push(this.download);
  };
  try {
    await click(byTest('config-file-download'));
    await waitFor(() => saved.length === 1);
    assert.is(saved[0], 'emqx.conf');
    assert.is(await blob!.text(), WHOLE);
    const select = byTest<HTMLSelectElement>('config-file-root')!;
    assert.equal([...select.options].map((o) => o.value), ['', 'sys_topics', 'log']);
    await choose(select, 'sys_topics');
    await waitFor(() => editor()?.value === ONE);
    assert.ok(api.calls.some((c) => c.path === '/configs' && c.query.get('key') === 'sys_topics' && c.headers.get('accept') === 'text/plain'));
    await click(byTest('config-file-download'));
    await waitFor(() => saved.length === 2);
    assert.is(saved[1], 'sys_topics.conf');
  } finally {
    URL.createObjectURL = create;
    HTMLAnchorElement.prototype.click = click0;
  }
});

test('Edit → Save asks about replacing content, PUTs text/plain with mode=merge, toasts and reloads', async () => {
  let whole = WHOLE;
  const api = await open('/basic-config?tab=file', {
    'PUT /configs': (c) => ((whole = String(c.body)), { status: 200 }),
    'GET /configs': (c) => (c.headers.get('accept') === 'text/plain' ? { body: whole } : { body: { sys_topics: {}, log: {} } }),
  });
  await waitFor(() => editor()?.value === WHOLE);
  await click(byTest('config-file-edit'));
  assert.is(editor()!.readOnly, false);
  const edited = WHOLE.replace('sys_heartbeat_interval = 30s', 'sys_heartbeat_interval = 10s');
  await type(editor(), edited);
  await click(byTest('config-file-save'));
  await waitFor(() => text().includes('Saving replaces the current content'));
  await click(byTest('confirm-cancel'));
  assert.equal(writes(api.calls), [], 'nothing is sent without confirming');
  await click(byTest('config-file-save'));
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => text().includes('Configuration saved'));
  const [put] = writes(api.calls);
  assert.is(put.method, 'PUT');
  assert.is(put.path, '/configs');
  assert.is(put.query.get('mode'), 'merge');
  assert.match(put.headers.get('content-type') ?? '', /^text\/plain/);
  assert.is(put.body, edited);
  await waitFor(() => editor()?.value === edited && editor()!.readOnly);
  assert.not.ok(byTest('config-file-save'));
});

test('a refused file shows the broker\'s errors in words and marks the line; the text stays for fixing', async () => {
  const api = await open('/basic-config?tab=file', {
    'PUT /configs': (c) => (String(c.body).includes('loud')
      ? { status: 400, body: { code: 'UPDATE_FAILED', message: 'log.console.level: expected one of debug, info', errors: { log: { path: 'log.console.level', reason: 'expected one of debug, info', value: 'loud' } } } }
      : { status: 400, body: { code: 'UPDATE_FAILED', message: 'line 3, column 1: missing "}"', errors: { hocon: { line: 3, column: 1, reason: 'missing "}"' } } } }),
  });
  await waitFor(() => editor()?.value === WHOLE);
  await click(byTest('config-file-edit'));
  await type(editor(), WHOLE.replace('level = warning', 'level = loud'));
  await click(byTest('config-file-save'));
  await click(await waitFor(() => byTest('confirm-ok')));
  const error = await waitFor(() => byTest('config-file-error'));
  assert.ok(error.textContent!.includes('The configuration was not saved'));
  assert.ok(error.textContent!.includes('log.console.level: expected one of debug, info'));
  assert.ok(editor()!.value.includes('loud'), 'the edit is kept');
  assert.not.ok(text().includes('Configuration saved'));
  await type(editor(), 'log {\n  a = 1\n');
  await click(byTest('config-file-save'));
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => byTest('config-file-error')?.textContent?.includes('Line 3, column 1: missing "}"'));
  assert.ok(byTest('config-file-editor')!.querySelector('.code-error-line'));
  assert.is(writes(api.calls).length, 2);
});

test('reset to default asks first, then POSTs /configs_reset/{root} and reloads ("zh")', async () => {
  const api = await open('/basic-config?tab=file&key=sys_topics', { 'POST /configs_reset/sys_topics': { status: 200 } }, 'zh');
  await waitFor(() => editor()?.value === ONE);
  assert.ok(text().includes('配置文件'));
  await click(byTest('config-file-reset'));
  await waitFor(() => text().includes('确定将 sys_topics 恢复为默认值吗？'));
  await click(byTest('confirm-cancel'));
  assert.equal(writes(api.calls), []);
  const reads = api.calls.filter((c) => c.path === '/configs' && c.headers.get('accept') === 'text/plain').length;
  await click(byTest('config-file-reset'));
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => text().includes('重置成功'));
  assert.equal(writes(api.calls).map((c) => [c.method, c.path]), [['POST', '/configs_reset/sys_topics']]);
  await waitFor(() => api.calls.filter((c) => c.path === '/configs' && c.headers.get('accept') === 'text/plain').length > reads);
});

test('switching the root while editing asks first; staying keeps the edit, leaving drops it', async () => {
  await open('/basic-config?tab=file', {});
  await waitFor(() => editor()?.value === WHOLE);
  await click(byTest('config-file-edit'));
  await type(editor(), `${WHOLE}# mine\n`);
  await choose(byTest<HTMLSelectElement>('config-file-root')!, 'sys_topics');
  await waitFor(() => text().includes('Changes that you made may not be saved.'));
  await click(byTest('confirm-cancel'));
  assert.ok(editor()!.value.endsWith('# mine\n'), 'staying keeps the edit');
  assert.is(byTest<HTMLSelectElement>('config-file-root')!.value, '');
  await choose(byTest<HTMLSelectElement>('config-file-root')!, 'sys_topics');
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => editor()?.value === ONE);
  assert.is(editor()!.readOnly, true);
  assert.not.ok(byTest('config-file-save'));
});

test('loading, error with retry, and the empty file', async () => {
  let fail = true;
  await open('/basic-config?tab=file', {
    'GET /configs': (c) => (c.headers.get('accept') !== 'text/plain' ? { body: { limiter: {} } }
      : fail ? { status: 500, body: { code: 'INTERNAL_ERROR', message: 'Internal error' } } : { body: '', delay: 50 }),
  });
  await waitFor(() => byTest('state-error'));
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => byTest('state-loading'));
  await waitFor(() => byTest('state-empty'));
  assert.ok(text().includes('This config root has no content'));
});

test('HOCON highlighting keeps every character', () => {
  const source = 'a.b = "x # y" # note\nc { d = [1, 2.5, true], e = 15s, f = http://h/p }\n// end\nbad = "open\n';
  const tokens = hoconTokens(source);
  assert.is(tokens.map((t) => t.text).join(''), source);
  assert.ok(tokens.some((t) => t.type === 'comment' && t.text === '# note'));
  assert.ok(tokens.some((t) => t.type === 'string' && t.text === '"x # y"'));
  assert.ok(tokens.some((t) => t.type === 'number' && t.text === '2.5'));
  assert.not.ok(tokens.some((t) => t.type === 'number' && t.text.startsWith('15')));
});

test.run();
