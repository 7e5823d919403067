import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { render } from 'preact';
import { useState } from 'react';
import { Pager, pageWindow } from '../../web/ui/Pager.tsx';
import { Tabs } from '../../web/ui/Tabs.tsx';
import { Drawer } from '../../web/ui/Drawer.tsx';
import { PayloadView, encodePayload, fromBase64 } from '../../web/ui/PayloadView.tsx';
import { MetricsPanel } from '../../web/ui/MetricsPanel.tsx';
import { StatusTag } from '../../web/ui/StatusTag.tsx';
import { Descriptions } from '../../web/ui/Descriptions.tsx';
import { FilterBar } from '../../web/ui/FilterBar.tsx';
import { useColumns } from '../../web/ui/ColumnChooser.tsx';
import { byTest, cleanup, click, microtasks, mount, pointerDown, press, reset, submit, text, type, waitFor } from '../helpers/render.tsx';

const b64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

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

test('a drawer takes the focus and hears Escape in the update that shows it, before any later frame', async () => {
  reset();
  function Opener() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <button type="button" data-test="open" onClick={() => setOpen(true)}>Open</button>
        {open && <Drawer title="Details" onClose={() => setOpen(false)} test="d"><input name="x" /></Drawer>}
      </>
    );
  }
  await mount(<Opener />);
  const opener = byTest<HTMLButtonElement>('open')!;
  opener.focus();
  // Clicked outside act(): only what the click itself renders, as a key pressed at once meets it.
  opener.click();
  await microtasks();
  assert.ok(byTest('d'), 'the drawer is shown');
  assert.is(document.activeElement?.getAttribute('name'), 'x', 'focus moved into the drawer');
  document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  await microtasks();
  assert.is(byTest('d'), null, 'Escape closed it');
  assert.is(document.activeElement, opener, 'the focus is back on the opener');
});

test('a text payload opens as plaintext and converts to JSON, hex and base64', async () => {
  reset();
  await mount(<PayloadView base64={b64('{"temp":21.5,"unit":"°C"}')} />);
  assert.is(byTest('payload-text')!.textContent, '{"temp":21.5,"unit":"°C"}');
  await click(byTest('payload-json'));
  assert.is(byTest('payload-text')!.textContent, '{\n  "temp": 21.5,\n  "unit": "°C"\n}');
  await click(byTest('payload-hex'));
  assert.ok(byTest('payload-text')!.textContent!.startsWith('7b 22 74 65 6d 70'));
  await click(byTest('payload-base64'));
  assert.is(byTest('payload-text')!.textContent, b64('{"temp":21.5,"unit":"°C"}'));
});

test('binary payloads open as hex; markup is shown as text; over 1 MB only the size shows', async () => {
  reset();
  await mount(<PayloadView base64={btoa(String.fromCharCode(0xff, 0x00, 0xfe))} />);
  assert.is(byTest('payload-text')!.textContent, 'ff 00 fe');
  await click(byTest('payload-plaintext'));
  assert.ok(byTest('payload-undecodable'));
  await mount(<PayloadView base64={b64('<script>alert(1)</script>')} />);
  assert.is(byTest('payload-text')!.textContent, '<script>alert(1)</script>');
  assert.is(document.querySelector('[data-test=payload-text] script'), null);
  await mount(<PayloadView base64="" size={5 * 1024 * 1024} />);
  assert.ok(byTest('payload-too-large'));
  assert.match(text(), /5 MB/);
  assert.is(byTest('payload-text'), null);
  assert.is(encodePayload(fromBase64(b64('not json')), b64('not json'), 'json'), null);
});

test('metrics are grouped by prefix and only non-empty groups show', async () => {
  reset();
  await mount(<MetricsPanel metrics={{ 'packets.sent': 1234, 'packets.received': 5, 'bytes.sent': 9, node: 'emqx@node1' }}
    groups={[{ title: 'common.yes', prefixes: ['packets.'] }, { title: 'common.no', prefixes: ['session.'] }]} />);
  const group = byTest('metrics-common.yes')!;
  assert.equal([...group.querySelectorAll('tr')].map((r) => r.textContent), ['packets.received5', 'packets.sent1,234']);
  assert.is(byTest('metrics-common.no'), null);
});

test('status tags translate known states and show unknown ones as they are', async () => {
  reset();
  await mount(<div><StatusTag status="connected" test="a" /><StatusTag status="stopped" test="b" /><StatusTag status="weird" test="c" /></div>);
  assert.is(byTest('a')!.textContent, 'Connected');
  assert.ok(byTest('a')!.className.includes('tag-ok'));
  assert.ok(byTest('b')!.className.includes('tag-bad'));
  assert.is(byTest('c')!.textContent, 'weird');
});

test('descriptions show labels and values, with a dash for empty ones', async () => {
  reset();
  await mount(<Descriptions test="d" items={[['common.yes', 'value'], ['common.no', ''], ['common.all', true]]} />);
  assert.equal([...byTest('d')!.querySelectorAll('dd')].map((d) => d.textContent), ['value', '—', 'Yes']);
});

test('the filter bar applies typed text on submit, choices at once, and resets everything', async () => {
  reset();
  const applied: Record<string, string | undefined>[] = [];
  await mount(<FilterBar query={{ like_clientid: 'abc' }} onApply={(v) => applied.push(v)}
    filters={[{ name: 'like_clientid', label: 'common.search' }, { name: 'conn_state', label: 'common.all', kind: 'select', options: [{ value: '', label: 'common.all' }, { value: 'connected', label: 'common.yes' }] }]} />);
  assert.is(document.querySelector<HTMLInputElement>('[name=like_clientid]')!.value, 'abc');
  await type(document.querySelector('[name=like_clientid]'), 'dev');
  assert.is(applied.length, 0, 'typing alone does not search');
  await submit(document.querySelector('form.filters'));
  assert.equal(applied[0], { like_clientid: 'dev', conn_state: '', page: undefined });
  const select = document.querySelector<HTMLSelectElement>('[name=conn_state]')!;
  select.value = 'connected';
  select.dispatchEvent(new Event('change', { bubbles: true }));
  assert.equal(applied[1], { like_clientid: 'dev', conn_state: 'connected', page: undefined });
  await click(byTest('filter-reset'));
  assert.equal(applied[2], { like_clientid: '', conn_state: '', page: undefined });
});

test('a filter select asks for its options in the commit that mounts it, as the list beside it does, not after a paint', async () => {
  reset();
  const asked: number[] = [];
  const container = document.createElement('div');
  document.body.append(container);
  try {
    // Rendered without act(): what ran here ran in the commit; effects that wait for a paint have not.
    render(<FilterBar query={{}} onApply={() => {}} filters={[{
      name: 'node', label: 'common.all', kind: 'select', options: [{ value: '', label: 'common.all' }],
      loadOptions: async () => (asked.push(1), [{ value: 'emqx@n1', label: 'emqx@n1' }]),
    }]} />, container);
    assert.is(asked.length, 1);
    await waitFor(() => [...container.querySelector('select')!.options].some((o) => o.value === 'emqx@n1'));
  } finally {
    render(null, container);
    container.remove();
  }
});

test('the column chooser hides optional columns and remembers the choice', async () => {
  reset();
  const columns = [{ key: 'a', title: 'common.yes' }, { key: 'b', title: 'common.no', optional: true }, { key: 'c', title: 'common.all', hidden: true }];
  let shown: string[] = [];
  function Host() {
    const { visible, chooser } = useColumns('kit-test', columns);
    shown = visible.map((c) => c.key);
    return <div>{chooser}</div>;
  }
  await mount(<Host />);
  assert.equal(shown, ['a', 'b']);
  await click(byTest('kit-test-columns'));
  await click(byTest('column-b'));
  await click(byTest('column-c'));
  assert.equal(shown, ['a', 'c']);
  await mount(<Host />);
  assert.equal(shown, ['a', 'c'], 'the choice survives a remount');
});

test('the column chooser closes on a press outside it and on Escape, the focus back on its button', async () => {
  reset();
  const columns = [{ key: 'a', title: 'common.yes' }, { key: 'b', title: 'common.no', optional: true }];
  function Host() {
    const { chooser } = useColumns('kit-popover', columns);
    return <div><p data-test="outside">page</p>{chooser}</div>;
  }
  await mount(<Host />);
  const button = byTest('kit-popover-columns')!;
  await click(button);
  await pointerDown(byTest('column-b'));
  assert.ok(byTest('column-b'), 'a press inside keeps it open');
  await pointerDown(byTest('outside'));
  assert.is(byTest('column-b'), null, 'a press outside closes it');
  assert.is(button.getAttribute('aria-expanded'), 'false');
  await click(button);
  byTest('column-b')!.focus();
  await press(byTest('column-b'), 'Escape');
  assert.is(byTest('column-b'), null, 'Escape closes it');
  assert.is(document.activeElement, button);
});

test('a press outside right after the column chooser opened closes it, before any later frame', async () => {
  reset();
  function Host() {
    const { chooser } = useColumns('kit-soon', [{ key: 'a', title: 'common.yes' }, { key: 'b', title: 'common.no', optional: true }]);
    return <div><p data-test="outside">page</p>{chooser}</div>;
  }
  await mount(<Host />);
  // Outside act(): only what the click itself renders, as a press that comes at once meets it.
  byTest<HTMLButtonElement>('kit-soon-columns')!.click();
  await microtasks();
  assert.ok(byTest('column-b'), 'open');
  byTest('outside')!.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
  await microtasks();
  assert.is(byTest('column-b'), null, 'the press closed it');
});

test.after(cleanup);
test.run();
