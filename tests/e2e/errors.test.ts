// The error language in a real browser: a server refusal names its field in a translated sentence,
// the field is scrolled into view and focused, a toast says it too with the raw text under
// "Details"; a cluster invitation to a node that is down reads as a sentence, not an Erlang term.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loginAsAdmin, openConsole, openPage, type ConsoleSession } from '../helpers/browser.ts';

let session: ConsoleSession;

test.before(async () => {
  session = await openConsole();
});

test.after(async () => {
  await session?.close();
});

/** Creates an HTTP connector whose URL the server refuses, in the page's language. */
async function refusedConnector(page: ConsoleSession['w']['page'], name: string) {
  await page.goto(`${session.sim.baseUrl}/#/connector/create?type=http`);
  const form = '[data-test=connector-create] form';
  await page.waitForSelector(`${form} [data-test=field-url]`);
  await page.fill(`${form} [data-test=field-name]`, name);
  await page.fill(`${form} [data-test=field-url]`, 'not a url');
  // Scrolled away from the field before saving.
  await page.evaluate(`scrollTo(0, document.body.scrollHeight)`);
  await page.click(`${form} [type=submit]`);
  const error = await page.waitForSelector('[data-test=error-url]');
  const toast = await page.waitForSelector('[data-test=toast-error]');
  return {
    field: (await error.textContent()) ?? '',
    toast: (await toast.textContent()) ?? '',
    focused: String(await page.evaluate(`document.activeElement?.getAttribute('data-test')`)),
    inView: await page.evaluate(`(() => { const r = document.querySelector('[data-test=connector-create] form [data-test=field-url]').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })()`),
    detail: String(await page.evaluate(`document.querySelector('[data-test=toast-detail] code')?.textContent ?? ''`)),
  };
}

test('a connector URL the server refuses: a sentence at the field, in view and focused, and a toast with the raw detail (en and zh)', async () => {
  const en = await refusedConnector(session.w.page, 'bad_url_en');
  assert.match(en.field, /not a valid URL/);
  assert.match(en.toast, /not a valid URL/);
  assert.is(en.focused, 'field-url');
  assert.ok(en.inView, 'the field is scrolled into view');
  assert.match(en.detail, /bad_url/, 'the raw reason under Details');
  assert.not.match(en.field + en.toast.replace(en.detail, ''), /bad_url|BAD_REQUEST|\{/);
  assert.equal(session.w.errors, []);

  const zh = await openPage(session.browser, { locale: 'zh-CN' });
  try {
    await loginAsAdmin(zh.page, session.sim.baseUrl);
    const result = await refusedConnector(zh.page, 'bad_url_zh');
    assert.match(result.field, /URL 格式不正确/);
    assert.match(result.toast, /URL 格式不正确/);
    assert.equal(zh.errors, []);
  } finally {
    await zh.page.context().close();
  }
});

test('inviting a node that is down reads as a sentence at the field and in a toast', async () => {
  const { page } = session.w;
  await page.evaluate(`document.querySelectorAll('[data-test=toast-error]').forEach((n) => n.remove())`);
  await page.goto(`${session.sim.baseUrl}/#/cluster`);
  await page.waitForSelector('[data-test=cluster-invite-node]');
  await page.fill('[data-test=cluster-invite-node]', 'emqx@10.255.0.1');
  await page.click('[data-test=cluster-invite]');
  const error = (await (await page.waitForSelector('[data-test=cluster-invite-error]')).textContent()) ?? '';
  assert.is(error, 'The node cannot be reached: check its name and the network');
  // (The connector test's toast may still be up: this one is found by its words.)
  await page.waitForSelector('[data-test=toast-error]:has-text("cannot be reached")');
  assert.not.match(error, /badrpc|nodedown|\{/);
  assert.equal(session.w.errors, []);
});

test.run();
