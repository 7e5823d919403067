// The line chart (web/ui/Chart.tsx): the first of a batch draws with the render that adds it and
// marks itself drawn on the element; it draws its data once, and again only for new data.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { Chart, loadLineChart } from '../../web/ui/Chart.tsx';
import { cleanup, mount, waitFor } from '../helpers/render.tsx';

const labels = ['10:00', '10:01', '10:02'];
const series = [{ name: 'Connections', values: [1, 2, 3] }];

let updates = 0;
test.before(async () => {
  const LineChart = await loadLineChart();
  const update = LineChart.prototype.update;
  LineChart.prototype.update = function (this: unknown, ...args: unknown[]) {
    updates++;
    return (update as (...a: unknown[]) => unknown).apply(this, args);
  };
});
test.before.each(() => {
  updates = 0;
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

test.run();
