// The console's charts come from frappe-charts' ES sources (web/shims/frappe-charts.js), without
// the layers of the other chart types (build/frappe.mjs), no longer from its UMD build. Both
// builds draw the same charts in Chromium, one page each (each adds its
// own stylesheet): the same markup, and the same pixels, when first drawn, after an update that
// changes the points and the scale, and with the tooltip shown by a hover.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { launch } from '../helpers/browser.ts';
import { REPO_ROOT } from '../helpers/simulator.ts';
import { setUpOrFail } from '../helpers/suite.ts';
import { frappeLineChart } from '../../build/frappe.mjs';

const require = createRequire(import.meta.url);
let browser: Browser;
/** Each build as a classic script that leaves the AxisChart class in `window.Lib`. */
const builds: Record<'umd' | 'source', string> = { umd: '', source: '' };

setUpOrFail(test, async () => {
  builds.umd = `${readFileSync(require.resolve('frappe-charts/dist/frappe-charts.min.umd.js'), 'utf8')};window.Lib = window.frappe.AxisChart;`;
  const bundled = await esbuild.build({
    absWorkingDir: REPO_ROOT, entryPoints: ['web/shims/frappe-charts.js'], bundle: true, write: false, format: 'iife',
    globalName: 'FrappeSource', target: 'es2022', logLevel: 'silent', plugins: [frappeLineChart(path.join(REPO_ROOT, 'web'))],
  });
  builds.source = `${bundled.outputFiles[0].text};window.Lib = FrappeSource.AxisChart;`;
  browser = await launch();
});

test.after(async () => {
  await browser?.close();
});

// What ui/Chart.tsx draws: its subclass (data drawn once, no intro) and its options. Page code
// as a string: the TypeScript loader would add helpers the page lacks.
const DRAW = `(({ data, height, colors }) => {
  class LineChart extends window.Lib {
    prepareFirstData(d) { return d; }
    draw(onlyWidthChange = false) {
      const style = getComputedStyle(this.parent);
      const width = this.parent.clientWidth - (parseFloat(style.paddingLeft) || 0) - (parseFloat(style.paddingRight) || 0);
      if (onlyWidthChange && width === this.drawnWidth) return;
      super.draw(onlyWidthChange, false);
      this.drawnWidth = width;
    }
    setupComponents() {
      super.setupComponents();
      const xAxis = this.components.get('xAxis');
      const ticks = xAxis.getData;
      xAxis.getData = () => {
        const axis = ticks.call(xAxis);
        const kept = axis.calcLabels.map((label, i) => i).filter((i) => axis.calcLabels[i] !== '');
        return { ...axis, positions: kept.map((i) => axis.positions[i]), calcLabels: kept.map((i) => axis.calcLabels[i]) };
      };
    }
  }
  window.chart = new LineChart(document.getElementById('host'), {
    type: 'line', data, height, colors,
    lineOptions: { hideDots: 1, regionFill: 1, spline: 0 }, axisOptions: { xIsSeries: 1, xAxisMode: 'tick' }, animate: 0,
    tooltipOptions: { formatTooltipY: (v) => (v === null || v === undefined ? '—' : String(v)) },
  });
})`;

const FIRST = {
  data: { labels: ['10:00', '10:01', '10:02', '10:03', '10:04', '10:05'], datasets: [{ name: 'Received', values: [0, 3, 7, 2, 9, 4] }, { name: 'Sent', values: [1, 1, 5, 6, 2, 0] }] },
  height: 220, colors: ['#5f4bd8', '#1a9e5c', '#e0a100', '#d93026'],
};
const NEXT = {
  labels: ['10:01', '10:02', '10:03', '10:04', '10:05', '10:06', '10:07'],
  datasets: [{ name: 'Received', values: [0.25, 1200, 730, 44, 0, 0.6, 15] }, { name: 'Sent', values: [3, 900, 1000, 12, 7, 0, 2] }],
};

interface Drawn { markup: string[]; shots: Buffer[] }

async function draw(kind: keyof typeof builds, scheme: 'light' | 'dark'): Promise<Drawn> {
  const context = await browser.newContext({ viewport: { width: 900, height: 400 }, colorScheme: scheme });
  const page: Page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setContent('<!doctype html><html><head></head><body style="margin:0;font:14px sans-serif"><div id="frame" style="width:720px;padding:16px"><div id="host"></div></div></body></html>');
  await page.addScriptTag({ content: builds[kind] });
  const frame = page.locator('#frame');
  const markup: string[] = [];
  const shots: Buffer[] = [];
  const record = async () => {
    markup.push(await page.$eval('#frame', (el) => el.innerHTML));
    shots.push(await frame.screenshot({ animations: 'disabled' }));
  };
  await page.evaluate(`${DRAW}(${JSON.stringify(FIRST)})`);
  await page.waitForTimeout(50);
  await record();
  await page.evaluate(`window.chart.update(${JSON.stringify(NEXT)})`);
  // update() redraws after its transition (animate: 0 still runs it, 350 ms in 1.6.2).
  await page.waitForTimeout(800);
  await record();
  const box = (await page.locator('#host svg').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.5);
  await page.waitForTimeout(100);
  assert.ok(await page.$eval('.graph-svg-tip', (tip) => getComputedStyle(tip).opacity !== '0' && tip.textContent!.length > 0), `${kind}: a tooltip shows`);
  // The tooltip is appended to the chart's container; the page shot includes it.
  markup.push(await page.$eval('#frame', (el) => el.innerHTML));
  shots.push(await page.screenshot({ animations: 'disabled' }));
  assert.equal(errors, [], kind);
  await context.close();
  return { markup, shots };
}

for (const scheme of ['light', 'dark'] as const) {
  test(`frappe-charts from its sources draws what its UMD build draws: markup and pixels (${scheme})`, async () => {
    const umd = await draw('umd', scheme);
    const source = await draw('source', scheme);
    assert.ok(umd.markup[0].includes('<path'), 'a line is drawn');
    assert.ok(umd.markup[1] !== umd.markup[0], 'the update changed the drawing');
    assert.equal(source.markup, umd.markup);
    umd.shots.forEach((shot, i) => assert.ok(shot.equals(source.shots[i]), `shot ${i} differs`));
  });
}

test('the source build adds the library’s stylesheet to the page once, as the UMD build does', async () => {
  const page = await browser.newPage();
  await page.setContent('<!doctype html><html><head></head><body><div id="host"></div></body></html>');
  await page.addScriptTag({ content: builds.source });
  const rules = await page.$$eval('head style', (styles) => styles.map((s) => (s as HTMLStyleElement).sheet!.cssRules.length));
  assert.is(rules.length, 1);
  assert.ok(rules[0] > 20, String(rules[0]));
  await page.close();
});

test.run();
