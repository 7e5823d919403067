import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { useState } from 'react';
import { Pager, pageWindow } from '../../web/ui/Pager.tsx';
import { Tabs } from '../../web/ui/Tabs.tsx';
import { Drawer } from '../../web/ui/Drawer.tsx';
import { byTest, cleanup, click, mount, reset, text } from '../helpers/render.tsx';

test('page windows keep the first, the last and two pages around the current one', () => {
  assert.equal(pageWindow(1, 3), [1, 2, 3]);
  assert.equal(pageWindow(10, 20), [1, 0, 8, 9, 10, 11, 12, 0, 20]);
  assert.equal(pageWindow(2, 9), [1, 2, 3, 4, 0, 9]);
});

test('without a total the pager offers only previous and next, driven by hasnext', async () => {
  reset();
  const pages: number[] = [];
  await mount(<Pager meta={{ page: 2, limit: 20, hasnext: true }} rows={20} onPage={(p) => pages.push(p)} onLimit={() => {}} />);
  const buttons = [...byTest('pager')!.querySelectorAll('button')].map((b) => b.textContent);
  assert.equal(buttons, ['Previous', 'Next']);
  assert.ok(text().includes('Page 2'));
  await click(byTest('pager-next'));
  await click(byTest('pager-prev'));
  assert.equal(pages, [3, 1]);
  await mount(<Pager meta={{ page: 3, limit: 20, hasnext: false }} rows={4} onPage={() => {}} onLimit={() => {}} />);
  assert.is(byTest<HTMLButtonElement>('pager-next')!.disabled, true);
});

test('a single short page needs no pager', async () => {
  reset();
  await mount(<Pager meta={{ page: 1, limit: 20, count: 3 }} rows={3} onPage={() => {}} onLimit={() => {}} />);
  assert.is(byTest('pager'), null);
});

test('tabs mark the active one and report clicks', async () => {
  reset();
  function Host() {
    const [active, setActive] = useState('current');
    return <Tabs tabs={[{ key: 'current', title: 'common.yes' }, { key: 'history', title: 'common.no' }]} active={active} onChange={setActive} />;
  }
  await mount(<Host />);
  assert.is(byTest('tab-current')!.getAttribute('aria-selected'), 'true');
  await click(byTest('tab-history'));
  assert.is(byTest('tab-history')!.getAttribute('aria-selected'), 'true');
  assert.is(byTest('tab-current')!.getAttribute('aria-selected'), 'false');
});

test('a drawer closes on Escape and on its close button', async () => {
  reset();
  let closed = 0;
  await mount(<Drawer title="Details" onClose={() => closed++} test="d"><input name="x" /></Drawer>);
  assert.is(document.activeElement?.getAttribute('name'), 'x', 'focus moves into the drawer');
  document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  await click(byTest('d')!.querySelector('button[aria-label=Close]'));
  assert.is(closed, 2);
});

test.after(cleanup);
test.run();
