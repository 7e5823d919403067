import { act } from 'preact/test-utils';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { formatDateTime } from '../../web/lib/format.ts';
import { setLocale } from '../../web/lib/i18n.ts';
import { session } from '../../web/lib/session.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { chooseFile, FakeXhr, installFakeXhr } from '../helpers/fakeXhr.ts';
import { byTest, cleanup, click, mount, reset, submit, text, type, waitFor, signedInAt } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const NODE = 'emqx@127.0.0.1';
const file = (filename: string, created_at = '2026-03-01T10:00:00.000+00:00') => ({ node: NODE, filename, created_at });
const A = 'emqx-export-2026-03-01-10-00-00.000.tar.gz';
const B = 'emqx-export-2026-03-02-11-00-00.000.tar.gz';

async function open() {
  await signedInAt('/backup');
}

function broker(start: ReturnType<typeof file>[], extra: Parameters<typeof fakeApi>[0] = {}) {
  let list = start;
  const api = fakeApi({
    'GET /data/files': (call) => ({ body: { data: list, meta: { page: Number(call.query.get('page')), limit: Number(call.query.get('limit')), count: list.length } } }),
    'GET /alarms': alarms,
    ...extra,
  });
  return { api, set: (next: typeof list) => (list = next), writes: () => api.calls.filter((c) => c.method !== 'GET').map((c) => [c.method, c.path + (c.query.size ? `?${c.query}` : ''), c.body]) };
}

const row = (name: string) => document.querySelector(`[data-test=backup-row][data-key="${name}"]`);
const cells = (name: string) => [...row(name)!.querySelectorAll('td')].map((td) => td.textContent);

test('lists backup files with node, file name and creation time, paged by the server', async () => {
  await open();
  const { api } = broker([file(A), file(B, '2026-03-02T11:00:00.000+00:00')]);
  await mount(<App />);
  await waitFor(() => row(B));
  assert.equal(cells(A).slice(0, 3), [NODE, A, formatDateTime('2026-03-01T10:00:00.000+00:00')]);
  const list = api.calls.find((c) => c.path === '/data/files')!;
  assert.is(String(list.query), 'page=1&limit=20');
  assert.ok(text().includes('Backup'));
  api.restore();
});

test('the empty state and a failed load with retry', async () => {
  await open();
  let fail = true;
  const api = fakeApi({
    'GET /data/files': () => (fail ? { status: 500, body: { code: 'INTERNAL_ERROR', message: 'x' } } : { body: { data: [], meta: { page: 1, limit: 20, count: 0 } } }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('state-error'));
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => text().includes('No backup files yet'));
  api.restore();
});

test('creating a backup posts /data/export (everything by default, or the chosen root keys) and lists it', async () => {
  await open();
  session.version = '5.8.9';
  const { api, set, writes } = broker([], {
    'POST /data/export': () => (set([file(A)]), { body: { node: NODE, filename: A, created_at: '2026-03-01T10:00:00.000+00:00' } }),
  });
  await mount(<App />);
  await waitFor(() => byTest('state-empty'));
  await click(byTest('backup-create'));
  let form = (await waitFor(() => byTest('backup-create-form')))!.querySelector('form')!;
  await submit(form);
  await waitFor(() => row(A));
  assert.ok(text().includes('Backup created'));
  await click(byTest('backup-create'));
  form = (await waitFor(() => byTest('backup-create-form')))!.querySelector('form')!;
  await type(form.querySelector('[name=root_keys]'), 'rewrite\nauthentication\n');
  await submit(form);
  await waitFor(() => !byTest('backup-create-form'));
  assert.equal(writes(), [['POST', '/data/export', {}], ['POST', '/data/export', { root_keys: ['rewrite', 'authentication'] }]]);
  api.restore();
});

test('download saves the archive under the content-disposition file name', async () => {
  await open();
  const { api } = broker([file(A)]);
  const fetch0 = globalThis.fetch;
  const create = URL.createObjectURL;
  const click0 = HTMLAnchorElement.prototype.click;
  const requested: string[] = [];
  const saved: string[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), location.href);
    if (!url.pathname.includes('/data/files/')) return fetch0(input, init);
    requested.push(`${url.pathname.replace(/^.*\/api\/v5/, '')}${url.search}`);
    return new Response(new Uint8Array([31, 139, 8]), { headers: { 'content-disposition': 'attachment; filename="server-named.tar.gz"' } });
  }) as typeof fetch;
  URL.createObjectURL = () => 'blob:x';
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    saved.push(this.download);
  };
  try {
    await mount(<App />);
    await click(await waitFor(() => row(A)?.querySelector('[data-test=backup-download]')));
    await waitFor(() => text().includes('Backup downloaded'));
    assert.equal(requested, [`/data/files/${A}?node=emqx%40127.0.0.1`]);
    assert.equal(saved, ['server-named.tar.gz']);
  } finally {
    globalThis.fetch = fetch0;
    URL.createObjectURL = create;
    HTMLAnchorElement.prototype.click = click0;
    api.restore();
  }
});

for (const [locale, ask, done] of [
  ['en', `Restore from ${A}? The current configuration is replaced by the one in the backup.`, 'Backup restored'],
  ['zh', `确定从 ${A} 恢复吗？当前配置将被备份中的配置覆盖。`, '恢复成功'],
] as const) {
  test(`restore asks first ("${locale}") and posts /data/import with node and file name`, async () => {
    await open();
    setLocale(locale);
    const { api, writes } = broker([file(A)], { 'POST /data/import': { status: 204 } });
    await mount(<App />);
    await click(await waitFor(() => row(A)?.querySelector('[data-test=backup-restore]')));
    await waitFor(() => text().includes(ask));
    await click(byTest('confirm-cancel'));
    assert.equal(writes(), []);
    await click(row(A)!.querySelector('[data-test=backup-restore]'));
    await click(await waitFor(() => byTest('confirm-ok')));
    await waitFor(() => text().includes(done));
    assert.equal(writes(), [['POST', '/data/import', { node: NODE, filename: A }]]);
    api.restore();
  });
}

test('delete asks first, sends DELETE with the node, and the file leaves the list', async () => {
  await open();
  const { api, set, writes } = broker([file(A), file(B)], { [`DELETE /data/files/${A}`]: () => (set([file(B)]), { status: 204 }) });
  await mount(<App />);
  await click(await waitFor(() => row(A)?.querySelector('[data-test=backup-delete]')));
  await waitFor(() => text().includes(`Delete the backup file ${A}?`));
  await click(byTest('confirm-ok'));
  await waitFor(() => !row(A));
  assert.ok(text().includes('Backup deleted'));
  assert.equal(writes(), [['DELETE', `/data/files/${A}?node=emqx%40127.0.0.1`, undefined]]);
  api.restore();
});

test('upload sends the archive as the multipart field "filename" with progress, then lists it', async () => {
  await open();
  const restore = installFakeXhr();
  const { api, set } = broker([]);
  await mount(<App />);
  await waitFor(() => byTest('state-empty'));
  await click(byTest('backup-upload'));
  await waitFor(() => byTest('backup-upload-drawer'));
  await click(byTest('backup-file-submit'));
  assert.ok(text().includes('Please upload the file first'));
  await act(() => chooseFile(byTest('backup-file-input'), new File(['x'], 'backup.zip')));
  assert.ok(text().includes('Please upload a file with extension .tar.gz'));
  await act(() => chooseFile(byTest('backup-file-input'), new File([new Uint8Array(10)], B)));
  await click(byTest('backup-file-submit'));
  const xhr = await waitFor(() => FakeXhr.requests[0]);
  assert.is(xhr.url, 'api/v5/data/files');
  assert.is(xhr.headers.authorization, 'Bearer tok');
  assert.is((xhr.body!.get('filename') as File).name, B);
  await act(() => xhr.progress(0.25));
  assert.is(byTest<HTMLProgressElement>('backup-file-progress')!.value, 25);
  set([file(B)]);
  await act(() => xhr.respond(204));
  await waitFor(() => row(B));
  assert.not.ok(byTest('backup-upload-drawer'));
  assert.ok(text().includes('Backup uploaded'));
  restore();
  api.restore();
});

test('a file dropped on the zone is checked and chosen like a picked one', async () => {
  await open();
  const restore = installFakeXhr();
  const { api } = broker([]);
  await mount(<App />);
  await click(await waitFor(() => byTest('backup-upload')));
  const drop = (file: File) => act(() => {
    const event = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(event, 'dataTransfer', { value: { files: [file] } });
    byTest('backup-file-drop')!.dispatchEvent(event);
  });
  await drop(new File(['x'], 'notes.txt'));
  assert.ok(text().includes('Please upload a file with extension .tar.gz'));
  await drop(new File(['x'], A));
  assert.ok(byTest('backup-file-file')!.textContent!.includes(A));
  await click(byTest('backup-file-submit'));
  assert.is((FakeXhr.requests[0].body!.get('filename') as File).name, A);
  restore();
  api.restore();
});

test('a failed upload says "Upload Failed" with the reason and keeps the drawer open', async () => {
  await open();
  const restore = installFakeXhr();
  const { api } = broker([]);
  await mount(<App />);
  await click(await waitFor(() => byTest('backup-upload')));
  await act(() => chooseFile(byTest('backup-file-input'), new File(['x'], B)));
  await click(byTest('backup-file-submit'));
  await act(() => FakeXhr.requests[0].respond(400, { code: 'BAD_REQUEST', message: 'invalid backup file' }));
  await waitFor(() => byTest('backup-file-failed'));
// Changed with issue #34: server text only under Details, the sentence from the error catalogue.
  assert.is(byTest('backup-file-failed')!.textContent, 'Upload Failed: The request has invalid parameters');
  assert.match(byTest('error-detail')!.textContent!, /400 BAD_REQUEST: invalid backup file/);
  assert.ok(byTest('backup-upload-drawer'));
  assert.ok(api.calls.filter((c) => c.path === '/data/files').every((c) => !c.query.has('upload')), 'the drawer switch is not sent to the API');
  restore();
  api.restore();
});

test.after(cleanup);
test.run();
