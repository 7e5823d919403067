import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../web/lib/api';
import { download, filenameFromDisposition } from '../../web/lib/download';

const dispositions: [string | null, string][] = [
  ['attachment; filename="a b.zip"', 'a b.zip'],
  ['attachment; filename=trace.log', 'trace.log'],
  ['attachment;filename=trace.log;size=10', 'trace.log'],
  ['attachment; filename="semi;colon.txt"', 'semi;colon.txt'],
  ['attachment; filename="say \\"hi\\".txt"', 'say "hi".txt'],
  ["attachment; filename*=UTF-8''%E6%97%A5%E5%BF%97%20a.zip", '日志 a.zip'],
  ["attachment; filename=\"fallback.zip\"; filename*=UTF-8''real%20name.zip", 'real name.zip'],
  ["attachment; filename*=utf-8'en'real.zip; filename=\"fallback.zip\"", 'real.zip'],
  ["attachment; filename*=iso-8859-1''caf%E9.txt", 'café.txt'],
  ["attachment; filename*=UTF-8''%FF%FE; filename=plain.txt", 'plain.txt'],
  ['attachment; FILENAME="upper.txt"', 'upper.txt'],
  ['filename=bare.txt', 'bare.txt'],
  ['attachment; filename="../../etc/passwd"', 'passwd'],
  ['attachment; filename="C:\\\\temp\\\\x.bin"', 'x.bin'],
  ['attachment; filename=".."', 'fallback.bin'],
  ['attachment', 'fallback.bin'],
  ['inline; name="x"', 'fallback.bin'],
  ['', 'fallback.bin'],
  [null, 'fallback.bin'],
];

for (const [header, expected] of dispositions) {
  test(`filename of ${JSON.stringify(header)} is ${JSON.stringify(expected)}`, () => {
    assert.is(filenameFromDisposition(header, 'fallback.bin'), expected);
  });
}

interface Saved {
  download: string;
  href: string;
  attached: boolean;
  blob?: Blob;
}

/**
 * Stubs fetch with `reply`, and the object-URL and anchor-click browser pieces, for `fn`; records
 * requests, clicked anchors, created and revoked URLs.
 */
async function withBrowser(reply: () => Response, fn: (seen: { urls: URL[]; saved: Saved[]; created: string[]; revoked: string[]; accepts: string[] }) => Promise<void>) {
  const originals = { fetch: globalThis.fetch, create: URL.createObjectURL, revoke: URL.revokeObjectURL, click: HTMLAnchorElement.prototype.click };
  const seen = { urls: [] as URL[], saved: [] as Saved[], created: [] as string[], revoked: [] as string[], accepts: [] as string[] };
  const blobs = new Map<string, Blob>();
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    seen.urls.push(new URL(String(input), 'http://127.0.0.1:18083/'));
    seen.accepts.push(String((init.headers as Record<string, string>)?.accept));
    return reply();
  }) as typeof fetch;
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:test/${seen.created.length}`;
    seen.created.push(url);
    blobs.set(url, blob);
    return url;
  };
  URL.revokeObjectURL = (url: string) => {
    seen.revoked.push(url);
  };
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    seen.saved.push({ download: this.download, href: this.href, attached: document.body.contains(this), blob: blobs.get(this.href) });
  };
  try {
    await fn(seen);
  } finally {
    globalThis.fetch = originals.fetch;
    URL.createObjectURL = originals.create;
    URL.revokeObjectURL = originals.revoke;
    HTMLAnchorElement.prototype.click = originals.click;
  }
}

test('download saves the body under the content-disposition name and revokes the object URL', async () => {
  await withBrowser(
    () => new Response('line 1\nline 2\n', { status: 200, headers: { 'content-disposition': "attachment; filename*=UTF-8''trace%20t1.log" } }),
    async (seen) => {
      const name = await download('/trace/t1/download', { node: 'emqx@127.0.0.1' }, 'trace.log');
      assert.is(name, 'trace t1.log');
      assert.equal(
        seen.urls.map((url) => url.pathname + url.search),
        ['/api/v5/trace/t1/download?node=emqx%40127.0.0.1'],
      );
      assert.is(seen.saved.length, 1);
      assert.is(seen.saved[0].download, 'trace t1.log');
      assert.is(seen.saved[0].href, seen.created[0]);
      assert.ok(seen.saved[0].attached, 'the anchor is in the document when clicked');
      assert.equal(seen.revoked, seen.created);
      assert.is(document.querySelectorAll('a[download]').length, 0, 'the temporary anchor is removed');
    },
  );
});

test('download saves the exact bytes received', async () => {
  await withBrowser(
    () => new Response('{"not":"parsed"}', { status: 200, headers: { 'content-disposition': 'attachment; filename=data.json' } }),
    async (seen) => {
      await download('data_export');
      assert.is(seen.saved[0].download, 'data.json');
      assert.is(await seen.saved[0].blob?.text(), '{"not":"parsed"}');
    },
  );
});

test('download falls back to the given name without a content-disposition header', async () => {
  await withBrowser(
    () => new Response('x', { status: 200 }),
    async (seen) => {
      assert.is(await download('plugins/p/download', undefined, 'plugin.tar.gz'), 'plugin.tar.gz');
      assert.is(seen.saved[0].download, 'plugin.tar.gz');
      assert.equal(seen.revoked, seen.created);
    },
  );
});

test('a failed download rejects with the server code and message and creates no object URL', async () => {
  await withBrowser(
    () => new Response(JSON.stringify({ code: 'NOT_FOUND', message: 'Trace not found' }), { status: 404 }),
    async (seen) => {
      const failure = await download('trace/x/download').catch((error: unknown) => error);
      assert.instance(failure, ApiError);
      assert.is((failure as ApiError).status, 404);
      assert.is((failure as ApiError).code, 'NOT_FOUND');
      assert.is((failure as ApiError).message, 'Trace not found');
      assert.is(seen.created.length, 0);
      assert.is(seen.saved.length, 0);
    },
  );
});

test('a failed download with a plain-text body keeps that text as the message', async () => {
  await withBrowser(
    () => new Response('Bad Gateway', { status: 502 }),
    async () => {
      const failure = (await download('trace/x/download').catch((error: unknown) => error)) as ApiError;
      assert.instance(failure, ApiError);
      assert.is(failure.status, 502);
      assert.is(failure.code, 'HTTP_502');
      assert.is(failure.message, 'Bad Gateway');
    },
  );
});

test.run();
