/**
 * A line chart on frappe-charts, loaded lazily the first time a chart is shown (it stays out of
 * the first chunk, STYLE.md habit 10). Series update in place when `labels`/`series` change.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { AxisChart } from 'frappe-charts';
import { afterPaint, whenIdle } from '../lib/frames.ts';
import { t } from '../lib/i18n.ts';

export interface Series {
  name: string;
  values: number[];
}

/**
 * frappe-charts prints axis steps computed in floating point (`0.6000000000000001`); round the
 * labels it draws to six significant digits whenever it (re)draws them, e.g. on resize.
 */
function tidyAxisLabels(root: HTMLElement) {
  for (const label of root.querySelectorAll('.y.axis text')) {
    const value = Number(label.textContent);
    const tidy = String(Number(value.toPrecision(6)));
    if (label.textContent && Number.isFinite(value) && tidy !== label.textContent) label.textContent = tidy;
  }
}

// Charts are drawn one per idle period, each after the next frame has painted: a screen of six
// charts then never holds the main thread for the time of all six at once (one long task of
// ~80 ms before), and the rest of the screen (figure cards, tables) paints with its data first.
// Idle time alone is not enough: there is idle time between an answer and the frame that shows
// it, and a chart drawn there holds that frame back. The first of a batch is drawn with the render
// that adds it (a layout effect), in the frame that shows its data: waiting for that frame's paint
// first showed an empty chart for a frame and drew it one frame and a render later.
let drawQueue: Promise<unknown> = Promise.resolve();
let waiting = 0;
/** When this chart may draw: `undefined` for now (the first of a batch, the library in), else a promise. */
function takeTurn(): Promise<void> | undefined {
  if (waiting === 0 && loaded) {
    waiting++;
    drawQueue = Promise.resolve().then(() => void waiting--);
    return undefined;
  }
  const turn = waiting++ === 0 ? drawQueue : drawQueue.then(() => new Promise<void>(afterPaint)).then(() => new Promise<void>(whenIdle));
  drawQueue = turn.then(() => void waiting--);
  return turn.then(() => undefined);
}

/**
 * The x axis without the ticks whose label frappe-charts thinned to '' (a series of 180 points
 * shows about ten labels): it makes a group, a line and a text for every point otherwise, 550 of
 * a chart's 580 elements, and the lines are hidden (styles.css). A chart then has a tenth of the
 * elements to make and lay out, and what shows is the same.
 */
function labelledTicks<T extends { positions: number[]; calcLabels: string[] }>(axis: T): T {
  const positions: number[] = [];
  const calcLabels: string[] = [];
  axis.calcLabels.forEach((label, i) => {
    if (label === '') return;
    positions.push(axis.positions[i]);
    calcLabels.push(label);
  });
  return { ...axis, positions, calcLabels };
}

/** The width frappe-charts draws a chart at: its host's, inside the padding (its getElementContentWidth). */
function contentWidth(element: HTMLElement): number {
  const style = getComputedStyle(element);
  return element.clientWidth - (parseFloat(style.paddingLeft) || 0) - (parseFloat(style.paddingRight) || 0);
}

/**
 * The chart class, made once when frappe-charts first loads (a failed load is tried again next
 * time). frappe-charts 1.6 first draws every value as zero and the real data 700 ms later
 * (BaseChart.draw with `init`, an intro even with `animate: 0`): an empty 0–5 scale, then a second
 * full draw. This class draws its data once.
 */
let lineChart: Promise<typeof AxisChart> | undefined;
/** The class once it has loaded, for a chart that can draw in the render that adds it. */
let loaded: typeof AxisChart | undefined;
/** Loads the chart library (once); a screen that shows charts first asks for it with its chunk. */
export function loadLineChart(): Promise<typeof AxisChart> {
  lineChart ??= import('frappe-charts').then((mod) => {
    // The package's `browser` field points esbuild at its UMD build, whose exports arrive as
    // `default`; Node resolves the ES build with named exports. Accept both.
    const { AxisChart: Base } = mod.AxisChart ? mod : (mod as unknown as { default: typeof mod }).default;
    loaded = class LineChart extends Base {
      prepareFirstData(data: unknown) {
        return data;
      }
      /** The width the chart was last drawn at (set by the draw in the base constructor: no initializer, which would run after it). */
      declare drawnWidth: number;
      draw(onlyWidthChange = false) {
        // frappe-charts draws the whole chart again on every report of its host's size observer
        // and on every window resize; the observer also reports once right after the chart is
        // made, in the frame that first shows it, which then laid the page out twice. Only a new
        // width needs a new drawing. Read before drawing, as frappe-charts reads it: after, it
        // would lay the page out once more.
        const width = contentWidth(this.parent);
        if (onlyWidthChange && width === this.drawnWidth) return;
        super.draw(onlyWidthChange, false);
        this.drawnWidth = width;
      }
      setupComponents() {
        super.setupComponents();
        const xAxis = this.components.get('xAxis');
        if (!xAxis) return;
        const ticks = xAxis.getData;
        xAxis.getData = () => labelledTicks(ticks.call(xAxis));
      }
    };
    return loaded;
  }, (error: unknown) => {
    lineChart = undefined;
    throw error;
  });
  return lineChart;
}

const DEFAULT_COLORS = ['#5f4bd8', '#1a9e5c', '#e0a100', '#d93026'];

/** frappe-charts' data of a chart's labels and series. */
function chartData(labels: string[], series: Series[]) {
  return { labels, datasets: series.map((s) => ({ name: s.name, values: s.values })) };
}

/** The options every chart is made with. */
function chartOptions(data: unknown, height: number, colors: string[]) {
  return {
    type: 'line', data, height, colors,
    lineOptions: { hideDots: 1, regionFill: 1, spline: 0 }, axisOptions: { xIsSeries: 1, xAxisMode: 'tick' }, animate: 0,
    tooltipOptions: { formatTooltipY: (v: number) => (v === null || v === undefined ? '—' : String(v)) },
  };
}

let prepared = false;

/**
 * Loads the chart library and, once the page is idle, draws one chart of `points` points out of
 * sight, lays it out and removes it. A page's first chart ran the library's code for the first
 * time: it took twice as long as the next; and the first layout of a chart's drawing cost the
 * frame that showed it 7 to 17 ms of layout, 3 to 5 once one had been laid out before (the
 * overview's first chart after sign-in, headless Chromium's trace). A screen that shows charts
 * calls this when its chunk loads (for the overview, while the login form waits).
 */
export function prepareCharts(points = 240) {
  void loadLineChart().then((LineChart) => whenIdle(() => {
    if (prepared) return;
    prepared = true;
    const host = document.createElement('div');
    host.setAttribute('aria-hidden', 'true');
    host.style.cssText = 'position:fixed;left:-10000px;top:0;width:480px;visibility:hidden';
    document.body.append(host);
    const labels = Array.from({ length: points }, (_, i) => String(i));
    const values = labels.map((_, i) => i % 7);
    try {
      const chart = new LineChart(host, chartOptions(chartData(labels, [{ name: 'a', values }, { name: 'b', values }]), 180, DEFAULT_COLORS));
      host.getBoundingClientRect();
      chart.destroy();
    } catch {
      // Only a head start: a real chart that fails says so where it is.
    } finally {
      host.remove();
    }
  }), () => undefined);
}

export function Chart(props: { title?: string; labels: string[]; series: Series[]; height?: number; colors?: string[]; test?: string }) {
  const figure = useRef<HTMLElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<AxisChart | null>(null);
  const [failed, setFailed] = useState<'' | 'load' | 'draw'>('');
  // The library may arrive after the data changed: build the chart from the latest props.
  const latest = useRef(props);
  latest.current = props;
  // What the chart shows: an update with the same labels and series would draw it all again.
  const shown = useRef<[string[], Series[]] | null>(null);

  useLayoutEffect(() => {
    let cancelled = false;
    let stop = () => {};
    const draw = (LineChart: typeof AxisChart) => {
      if (cancelled || !host.current) return;
      const observer = new MutationObserver(() => host.current && tidyAxisLabels(host.current));
      observer.observe(host.current, { childList: true, subtree: true });
      stop = () => observer.disconnect();
      try {
        const { labels, series } = latest.current;
        shown.current = [labels, series];
        chart.current = new LineChart(host.current, chartOptions(chartData(labels, series), props.height ?? 220, props.colors ?? DEFAULT_COLORS));
      } catch {
        stop();
        setFailed('draw');
        return;
      }
      // Marked on the element, not through state: a render more only to say so drew it a frame later.
      figure.current?.setAttribute('data-drawn', '');
    };
    const turn = takeTurn();
    if (!turn) draw(loaded!);
    else loadLineChart().then(async (LineChart) => {
      await turn;
      draw(LineChart);
    }, () => !cancelled && setFailed('load'));
    return () => {
      cancelled = true;
      stop();
      chart.current?.destroy();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    if (!chart.current || !props.labels.length) return;
    if (shown.current?.[0] === props.labels && shown.current[1] === props.series) return;
    shown.current = [props.labels, props.series];
    chart.current.update(chartData(props.labels, props.series));
  }, [props.labels, props.series]);

  return (
    <figure ref={figure} class="chart" data-test={props.test}>
      {props.title && <figcaption>{props.title}</figcaption>}
      {failed ? <p class="muted">{t(failed === 'load' ? 'common.chunkFailed' : 'common.chartFailed')}</p> : <div ref={host} />}
    </figure>
  );
}
