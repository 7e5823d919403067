// The line chart (web/ui/Chart.tsx): the first of a batch draws with the render that adds it and
// marks itself drawn on the element; it draws its data once, and again only for new data or a
// new width.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { Chart, loadLineChart } from '../../web/ui/Chart.tsx';
import { cleanup, mount, waitFor } from '../helpers/render.tsx';

const labels = ['10:00', '10:01', '10:02'];
const series = [{ name: 'Connections', values: [1, 2, 3] }];

let updates = 0;
/** Whole draws of a chart (frappe-charts' `makeChartArea` runs once per draw). */
let draws = 0;
test.before(async () => {
  const LineChart = await loadLineChart();
  const proto = Object.getPrototypeOf(LineChart.prototype) as { makeChartArea(...a: unknown[]): unknown };
  const makeChartArea = proto.makeChartArea;
  proto.makeChartArea = function (this: unknown, ...args: unknown[]) {
    draws++;
    return makeChartArea.apply(this, args);
  };
  const update = LineChart.prototype.update;
  LineChart.prototype.update = function (this: unknown, ...args: unknown[]) {
    updates++;
    return (update as (...a: unknown[]) => unknown).apply(this, args);
  };
});
test.before.each(() => {
  updates = 0;
  draws = 0;
});
test.after.each(cleanup);

test('with the library in, the chart is drawn and marked in the render that adds it, and not drawn again for the same data', async () => {
  const root = await mount(<Chart labels={labels} series={series} test="c" />);
  const figure = root.querySelector('[data-test=c]')!;
  // act() flushes the render and its layout effects, nothing later: the chart is there already.
  assert.ok(figure.hasAttribute('data-drawn'), 'marked in the same render');
  assert.ok(figure.querySelector('svg'), 'drawn in the same render');
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.is(updates, 0, 'no second draw of the data it was made with');
});

test('new data updates the chart; a render with the same data does not', async () => {
  const root = await mount(<Chart labels={labels} series={series} test="c" />);
  await waitFor(() => root.querySelector('[data-test=c][data-drawn]'));
  const next = { labels: [...labels, '10:03'], series: [{ name: 'Connections', values: [1, 2, 3, 4] }] };
  await act(async () => render(<Chart labels={next.labels} series={next.series} test="c" />, root));
  assert.is(updates, 1);
  await act(async () => render(<Chart labels={next.labels} series={next.series} test="c" title="again" />, root));
  assert.is(updates, 1, 'same labels and series: not drawn again');
});

test("the size observer's report at the width drawn draws nothing again; a new width draws the chart again", async () => {
  // As a browser does: an observer reports once after it starts observing, then on each resize.
  const observers: (() => void)[] = [];
  const Real = globalThis.ResizeObserver;
  globalThis.ResizeObserver = class {
    constructor(private report: () => void) {}
    observe() { observers.push(() => this.report()); }
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
  // A laid-out page: the chart's host is shown and 480 px wide.
  let width = 480;
  const proto = HTMLElement.prototype;
  const own = ['clientWidth', 'offsetParent'].map((name) => [name, Object.getOwnPropertyDescriptor(proto, name)] as const);
  Object.defineProperty(proto, 'clientWidth', { configurable: true, get: () => width });
  Object.defineProperty(proto, 'offsetParent', { configurable: true, get: () => document.body });
  try {
    await mount(<Chart labels={labels} series={series} test="c" />);
    assert.is(draws, 1, 'drawn once when made');
    assert.is(observers.length, 1, 'the chart observes its host');
    observers[0]();
    window.dispatchEvent(new Event('resize'));
    assert.is(draws, 1, 'the reports at the width drawn draw nothing');
    width = 360;
    observers[0]();
    assert.is(draws, 2, 'a new width draws it again');
    window.dispatchEvent(new Event('resize'));
    assert.is(draws, 2, 'once');
  } finally {
    globalThis.ResizeObserver = Real;
    for (const [name, descriptor] of own) {
      if (descriptor) Object.defineProperty(proto, name, descriptor);
      else delete (proto as unknown as Record<string, unknown>)[name];
    }
  }
});

test.run();
