/**
 * A per-second rate trend of some counters over the last minute or the last hour, read while the
 * page is visible (lib/useRates.ts) and drawn by the lazy `Chart`. Before two readings exist it
 * says so instead of drawing. It shows rates only; the counters themselves stay on their page.
 * The drawn values are on `data-points` (`{ counter: number[] }`) for tests and tools.
 */
import { useMemo, useState } from 'react';
import { defineMessages, getLocale, t } from '../lib/i18n.ts';
import { addStyleSheet } from '../lib/styles.ts';
import { useRates, type RatePoint } from '../lib/useRates.ts';
import { Chart } from './Chart.tsx';
import { Failed } from './States.tsx';

defineMessages({
  'rates.trend': { zh: '速率趋势', en: 'Rate trend' },
  'rates.perSecond': { zh: '每秒', en: 'per second' },
  'rates.range': { zh: '时间范围', en: 'Time range' },
  'rates.minute': { zh: '最近 1 分钟', en: 'Last minute' },
  'rates.hour': { zh: '最近 1 小时', en: 'Last hour' },
  'rates.collecting': { zh: '正在采样，两次读数后显示趋势', en: 'Sampling: the trend appears after two readings' },
  'rates.collectingHour': { zh: '页面打开期间每 30 秒记录一次，两次记录后显示趋势', en: 'While this page is open a reading is kept every 30 s; the trend appears after two' },
});

const CSS = `
.rate-chart{margin:.75rem 0 1rem;padding:.75rem .75rem 0;border:1px solid var(--pico-muted-border-color);border-radius:var(--pico-border-radius);min-width:0}
.rate-chart-head{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.5rem;margin-bottom:.25rem}
.rate-chart-head h4{margin:0;font-size:.9rem;font-weight:600}
.rate-chart-head h4 small{color:var(--pico-muted-color);font-weight:400;margin-left:.35rem}
.rate-chart-range[role=group]{display:flex;width:auto;margin:0;gap:.35rem;box-shadow:none}
.rate-chart-range[role=group]>button{flex:none;margin:0;padding:.15rem .6rem;font-size:.8rem;border-radius:var(--pico-border-radius)}
.rate-chart-empty{display:flex;align-items:center;justify-content:center;text-align:center;margin:0 0 .75rem;color:var(--pico-muted-color);font-size:.9rem;border:1px dashed var(--pico-muted-border-color);border-radius:var(--pico-border-radius)}
.rate-chart .chart{margin:0}
`;

/** Adds the chart's styles to the page once; they follow Pico's variables, so both themes. */
function addStyles() {
  addStyleSheet('rate-chart-styles', CSS);
}

export interface RateSeries {
  /** The counter's name in what `load` resolves, e.g. `matched`. */
  key: string;
  /** i18n key of its legend. */
  label: string;
}

type Range = 'minute' | 'hour';

const pad = (n: number) => String(n).padStart(2, '0');
const clock = (at: number, range: Range) => {
  const d = new Date(at);
  return range === 'minute' ? `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}` : `${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/**
 * `load` resolves the counters of `source` (e.g. `countersOf(body.metrics)`); `series` picks and
 * names the ones drawn. Example:
 * `<RateChart source={path} load={readCounters} series={[{ key: 'matched', label: 'rules.matched' }]} />`.
 */
export function RateChart(props: {
  source: string;
  load: (signal: AbortSignal) => Promise<Record<string, number>>;
  series: RateSeries[];
  /** i18n key; 'Rate trend' when absent. */
  title?: string;
  test?: string;
  everyMs?: number;
  height?: number;
}) {
  addStyles();
  const [range, setRange] = useState<Range>('minute');
  const rates = useRates(props.source, props.load, props.everyMs);
  const points: RatePoint[] = range === 'minute' ? rates.minute : rates.hour;
  const locale = getLocale();
  const drawn = useMemo(() => ({
    labels: points.map((p) => clock(p.at, range)),
    series: props.series.map((s) => ({ name: t(s.label), values: points.map((p) => p.rates[s.key] ?? 0) })),
  }), [points.at(-1)?.at, points.length, range, locale, props.series.map((s) => s.key).join()]);
  const values = Object.fromEntries(props.series.map((s, i) => [s.key, drawn.series[i].values]));
  const height = props.height ?? 180;
  return (
    <section class="rate-chart" data-test={props.test} data-range={range} data-points={JSON.stringify(values)}>
      <div class="rate-chart-head">
        <h4>{t(props.title ?? 'rates.trend')}<small>{t('rates.perSecond')}</small></h4>
        <div class="rate-chart-range" role="group" aria-label={t('rates.range')}>
          {(['minute', 'hour'] as const).map((r) => (
            <button type="button" key={r} class={r === range ? '' : 'secondary outline'} aria-pressed={r === range}
              data-test={`rate-range-${r}`} onClick={() => setRange(r)}>{t(`rates.${r}`)}</button>
          ))}
        </div>
      </div>
      {rates.error ? <Failed error={rates.error} retry={rates.retry} /> : null}
      {points.length === 0
        ? !rates.error && <p class="rate-chart-empty" style={{ height: `${height - 20}px` }} data-test="rate-chart-empty">
          {t(range === 'minute' ? 'rates.collecting' : 'rates.collectingHour')}
        </p>
        : <Chart labels={drawn.labels} series={drawn.series} height={height} />}
    </section>
  );
}
