import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, pendingCount } from '../../web/lib/api';
import { FETCH_ALL_PAGE_SIZE, fetchAll } from '../../web/lib/fetchAll';

type Reply = (url: URL, init: RequestInit) => Promise<Response> | Response;

/** Replaces fetch with `reply` for the duration of `fn`, recording each request's URL. */
async function withFetch(reply: Reply, fn: (urls: URL[]) => Promise<void>) {
  const original = globalThis.fetch;
  const urls: URL[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://127.0.0.1:18083/');
    urls.push(url);
    return reply(url, init);
  }) as typeof fetch;
  try {
    await fn(urls);
  } finally {
    globalThis.fetch = original;
  }
}

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ clientid: `c${from + i}` }));
const pageOf = (url: URL) => Number(url.searchParams.get('page'));

test('fetchAll walks pages of 1000 from page 1 until meta.count rows are in', async () => {
  await withFetch(
    (url) => {
      const page = pageOf(url);
      const size = page < 3 ? 1000 : 500;
      return json({ data: rows((page - 1) * 1000, size), meta: { page, limit: 1000, count: 2500, hasnext: page < 3 } });
    },
    async (urls) => {
      const all = await fetchAll<{ clientid: string }>('/clients', { node: 'emqx@127.0.0.1', like_clientid: '' });
      assert.is(all.length, 2500);
      assert.is(all[0].clientid, 'c0');
      assert.is(all[2499].clientid, 'c2499');
      assert.equal(
        urls.map((url) => url.pathname + url.search),
        [1, 2, 3].map((page) => `/api/v5/clients?node=emqx%40127.0.0.1&page=${page}&limit=1000`),
      );
    },
  );
});

test('fetchAll page and limit override the caller params', async () => {
  await withFetch(
    () => json({ data: rows(0, 2), meta: { count: 2 } }),
    async (urls) => {
      await fetchAll('subscriptions', { page: 7, limit: 5, clientid: 'c1' });
      assert.is(urls.length, 1);
      assert.is(urls[0].searchParams.get('page'), '1');
      assert.is(urls[0].searchParams.get('limit'), String(FETCH_ALL_PAGE_SIZE));
      assert.is(urls[0].searchParams.get('clientid'), 'c1');
    },
  );
});

test('fetchAll stops at an empty page even when meta.count promises more', async () => {
  await withFetch(
    (url) => json({ data: pageOf(url) === 1 ? rows(0, 1000) : [], meta: { count: 5000, hasnext: true } }),
    async (urls) => {
      const all = await fetchAll('clients');
      assert.is(all.length, 1000);
      assert.equal(urls.map(pageOf), [1, 2]);
    },
  );
});

test('fetchAll follows meta.hasnext when meta.count is absent', async () => {
  await withFetch(
    (url) => {
      const page = pageOf(url);
      return json({ data: rows((page - 1) * 1000, page < 4 ? 1000 : 10), meta: { page, limit: 1000, hasnext: page < 4 } });
    },
    async (urls) => {
      const all = await fetchAll('clients', { like_clientid: 'c' });
      assert.is(all.length, 3010);
      assert.equal(urls.map(pageOf), [1, 2, 3, 4]);
      assert.ok(urls.every((url) => url.searchParams.get('like_clientid') === 'c'));
    },
  );
});

test('fetchAll stops after one page when there is neither count nor hasnext', async () => {
  await withFetch(
    () => json({ data: rows(0, 1000), meta: {} }),
    async (urls) => {
      assert.is((await fetchAll('clients')).length, 1000);
      assert.is(urls.length, 1);
    },
  );
});

test('fetchAll returns a bare-array answer as the whole list', async () => {
  await withFetch(
    () => json([{ topic: 'a' }, { topic: 'b' }]),
    async (urls) => {
      assert.equal(await fetchAll('mqtt/topic_metrics'), [{ topic: 'a' }, { topic: 'b' }]);
      assert.is(urls.length, 1);
    },
  );
});

test('fetchAll aborted while a page is in flight rejects with ECONNABORTED and requests nothing more', async () => {
  const controller = new AbortController();
  await withFetch(
    (url, init) => {
      if (pageOf(url) === 1) return json({ data: rows(0, 1000), meta: { count: 3000 } });
      return new Promise((_, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        // Abort once the second request is really pending.
        setTimeout(() => controller.abort(), 0);
      });
    },
    async (urls) => {
      const failure = await fetchAll('clients', {}, { signal: controller.signal }).catch((error: unknown) => error);
      assert.instance(failure, ApiError);
      assert.is((failure as ApiError).code, 'ECONNABORTED');
      assert.equal(urls.map(pageOf), [1, 2]);
      assert.is(pendingCount(), 0);
    },
  );
});

test('fetchAll aborted between two pages does not request the next one', async () => {
  const controller = new AbortController();
  await withFetch(
    () => {
      controller.abort();
      return json({ data: rows(0, 1000), meta: { count: 3000 } });
    },
    async (urls) => {
      const failure = await fetchAll('clients', {}, { signal: controller.signal }).catch((error: unknown) => error);
      assert.instance(failure, ApiError);
      assert.is((failure as ApiError).code, 'ECONNABORTED');
      assert.equal(urls.map(pageOf), [1]);
    },
  );
});

test('fetchAll passes on a server error as ApiError', async () => {
  await withFetch(
    () => new Response(JSON.stringify({ code: 'BAD_REQUEST', message: 'page_limit_invalid' }), { status: 400 }),
    async () => {
      const failure = await fetchAll('clients').catch((error: unknown) => error);
      assert.instance(failure, ApiError);
      assert.is((failure as ApiError).code, 'BAD_REQUEST');
      assert.is((failure as ApiError).status, 400);
    },
  );
});

test.run();
