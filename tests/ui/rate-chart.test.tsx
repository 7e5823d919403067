import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { setLocale } from '../../web/lib/i18n.ts';
import { ApiError } from '../../web/lib/api.ts';
import { addSample, clearRateHistory, countersOf, HOUR_MS, HOUR_STEP_MS, MINUTE_MS, ratesOf, recordSample, useRates, type Rates, type RateSample } from '../../web/lib/useRates.ts';
import { RateChart } from '../../web/ui/RateChart.tsx';
import { byTest, cleanup, click, mount, waitFor } from '../helpers/render.tsx';

const sample = (at: number, n: number, m = 0): RateSample => ({ at, counters: { n, m } });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

test.before.each(() => {
  clearRateHistory();
  setLocale('en');
});
test.after.each(() => {
  cleanup();
  delete (document as { visibilityState?: string }).visibilityState;
});

test('the minute window keeps readings of the last 60 s only, in time order', () => {
  let w = [sample(0, 0)];
  w = addSample(w, sample(30_000, 10), MINUTE_MS);
  w = addSample(w, sample(60_000, 20), MINUTE_MS);
  assert.equal(w.map((s) => s.at), [0, 30_000, 60_000], 'exactly 60 s old stays');
  w = addSample(w, sample(61_000, 21), MINUTE_MS);
  assert.equal(w.map((s) => s.at), [30_000, 60_000, 61_000]);
  assert.is(addSample(w, sample(50_000, 1), MINUTE_MS), w, 'an older reading is ignored');
  assert.is(addSample(w, sample(61_000, 1), MINUTE_MS), w, 'a reading at the same moment is ignored');
});

test('the hour window keeps readings at least 30 s apart and drops those past an hour', () => {
  let w: RateSample[] = [];
  for (let at = 0; at <= 2 * HOUR_MS; at += 2000) w = addSample(w, sample(at, at / 1000), HOUR_MS, HOUR_STEP_MS);
  assert.is(w.length, HOUR_MS / HOUR_STEP_MS + 1);
  assert.is(w[0].at, HOUR_MS);
  assert.ok(w.every((s, i) => i === 0 || s.at - w[i - 1].at >= HOUR_STEP_MS));
});

test('rates are the growth of each counter per second between neighbouring readings; a reset counts from zero', () => {
  const points = ratesOf([sample(0, 100, 5), sample(2000, 110, 5), sample(4000, 111, 9), sample(5000, 3, 9)]);
  assert.equal(points, [
    { at: 2000, rates: { n: 5, m: 0 } },
    { at: 4000, rates: { n: 0.5, m: 2 } },
    { at: 5000, rates: { n: 3, m: 0 } },
  ]);
  assert.equal(ratesOf([sample(0, 1)]), [], 'one reading has no rate');
  assert.equal(ratesOf([{ at: 0, counters: { n: 0 } }, { at: 3000, counters: { n: 1 } }])[0].rates.n, 0.33, 'rounded to hundredths');
});

test('counters are the numeric fields of an answer, optionally only the named ones', () => {
  assert.equal(countersOf({ matched: 3, rate: 0.5, id: 'r1', nested: {} }), { matched: 3, rate: 0.5 });
  assert.equal(countersOf({ matched: 3, rate: 0.5 }, ['matched', 'missing']), { matched: 3 });
  assert.equal(countersOf(undefined), {});
});

test('readings are kept per source across pages, and a source silent for an hour is forgotten', () => {
  recordSample('a', sample(0, 0));
  recordSample('a', sample(2000, 4));
  assert.is(recordSample('b', sample(HOUR_MS, 0)).minute.length, 1);
  assert.is(recordSample('a', sample(3000, 5)).minute.length, 3, 'a is still there within the hour');
  recordSample('b', sample(3000 + HOUR_MS + 1, 0));
  assert.is(recordSample('a', sample(3000 + HOUR_MS + 2, 9)).minute.length, 1, 'a was forgotten and starts again');
});

let seen: Rates | undefined;
function Probe(props: { source: string; load: (signal: AbortSignal) => Promise<Record<string, number>>; every?: number }) {
  seen = useRates(props.source, props.load, props.every ?? 20);
  return <p data-test="probe">{seen.minute.length}</p>;
}

test('the hook reads on a timer while visible, stops while hidden and resumes at once when visible again', async () => {
  setVisibility('visible');
  let reads = 0;
  const load = async () => ({ n: ++reads * 10 });
  await mount(<Probe source="s1" load={load} />);
  await waitFor(() => seen!.minute.length >= 2);
  assert.ok(seen!.minute.every((p) => p.rates.n > 0), 'the counter grew between readings');
  setVisibility('hidden');
  const frozen = reads;
  await pause(120);
  assert.is(reads, frozen, 'no reading while hidden');
  setVisibility('visible');
  await waitFor(() => reads > frozen);
  await waitFor(() => reads > frozen + 2);
});

test('the hook stops reading on unmount and aborts the request still running', async () => {
  setVisibility('visible');
  let reads = 0;
  let aborted = false;
  const load = (signal: AbortSignal) => {
    reads++;
    if (reads < 3) return Promise.resolve({ n: reads });
    return new Promise<Record<string, number>>((_, reject) => signal.addEventListener('abort', () => ((aborted = true), reject(new Error('aborted')))));
  };
  await mount(<Probe source="s2" load={load} />);
  await waitFor(() => reads === 3);
  cleanup();
  await waitFor(() => aborted);
  await pause(100);
  assert.is(reads, 3);
});

test('a failed reading shows the error with a retry that reads again', async () => {
  setVisibility('visible');
  let fail = true;
  let reads = 0;
  const load = async () => {
    reads++;
    if (fail) throw new ApiError(503, 'METRICS_UNREACHABLE', 'broken');
    return { n: reads };
  };
  await mount(<RateChart source="s3" load={load} series={[{ key: 'n', label: 'rates.trend' }]} everyMs={20} test="chart" />);
  await waitFor(() => byTest('chart')!.querySelector('[data-test=state-error]'));
  assert.match(byTest('chart')!.textContent!, /broken/);
  await pause(80);
  assert.is(reads, 1, 'no reading after a failure until retried');
  fail = false;
  await click(byTest('chart')!.querySelector('[data-test=state-retry]'));
  await waitFor(() => JSON.parse(byTest('chart')!.dataset.points!).n.length >= 1);
  assert.is(byTest('chart')!.querySelector('[data-test=state-error]'), null);
});

test('the chart says it is sampling until two readings exist, then draws the rates it exposes on data-points', async () => {
  setVisibility('visible');
  let reads = 0;
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const load = async () => {
    reads++;
    if (reads === 2) await gate;
    return { matched: reads * 6, failed: reads === 1 ? 0 : 1 };
  };
  await mount(<RateChart source="s4" load={load} everyMs={20} test="chart"
    series={[{ key: 'matched', label: 'rules.matched' }, { key: 'failed', label: 'rules.failed' }]} />);
  await waitFor(() => reads === 2);
  const chart = byTest('chart')!;
  assert.is(chart.querySelector('[data-test=rate-chart-empty]')!.textContent, 'Sampling: the trend appears after two readings');
  assert.equal(JSON.parse(chart.dataset.points!), { matched: [], failed: [] });
  assert.ok(chart.textContent!.includes('Rate trend'));
  release();
  await waitFor(() => JSON.parse(byTest('chart')!.dataset.points!).matched.length >= 2);
  const points = JSON.parse(byTest('chart')!.dataset.points!);
  assert.ok(points.matched.every((v: number) => v > 0), 'matched grew at every reading');
  assert.ok(points.failed[0] > 0, 'failed grew once');
  assert.is(points.failed.at(-1), 0, 'then stayed');
  assert.is(byTest('chart')!.querySelector('[data-test=rate-chart-empty]'), null);
  assert.ok(byTest('chart')!.querySelector('figure.chart'), 'the chart is drawn');
});

test('the hour range has its own empty state; the range buttons say which is pressed; Chinese texts', async () => {
  setVisibility('visible');
  setLocale('zh');
  let reads = 0;
  await mount(<RateChart source="s5" load={async () => ({ n: ++reads })} series={[{ key: 'n', label: 'rates.trend' }]} everyMs={20} test="chart" />);
  await waitFor(() => JSON.parse(byTest('chart')!.dataset.points!).n.length >= 1);
  const chart = byTest('chart')!;
  assert.ok(chart.textContent!.includes('速率趋势'));
  assert.ok(chart.textContent!.includes('每秒'));
  assert.is(chart.querySelector('[data-test=rate-range-minute]')!.getAttribute('aria-pressed'), 'true');
  await click(chart.querySelector('[data-test=rate-range-hour]'));
  assert.is(byTest('chart')!.dataset.range, 'hour');
  assert.is(byTest('chart')!.querySelector('[data-test=rate-range-hour]')!.getAttribute('aria-pressed'), 'true');
  assert.is(byTest('rate-chart-empty')!.textContent, '页面打开期间每 30 秒记录一次，两次记录后显示趋势');
  assert.equal(JSON.parse(byTest('chart')!.dataset.points!), { n: [] }, 'readings 20 ms apart make no hour points');
});

test.run();
