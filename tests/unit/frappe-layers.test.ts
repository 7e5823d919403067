// The chart chunk's layer table (build/frappe.mjs): frappe-charts' ChartComponents.js keeps the
// layers a line chart asks for, loses the other chart types' and still compiles.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { UNUSED_LAYERS, withoutLayers } from '../../build/frappe.mjs';

const require = createRequire(import.meta.url);
const source = readFileSync(require.resolve('frappe-charts/src/js/objects/ChartComponents.js'), 'utf8');
const axisChart = readFileSync(require.resolve('frappe-charts/src/js/charts/AxisChart.js'), 'utf8');
/** The keys of `componentConfigs`: its entries start at one tab. */
const layers = (text: string) => [...text.slice(text.indexOf('let componentConfigs')).matchAll(/^\t(\w+): \{/gm)].map((m) => m[1]);

test('the line chart’s layers stay, the other chart types’ go', () => {
  const trimmed = withoutLayers(source);
  assert.equal(layers(source), ['donutSlices', 'pieSlices', 'percentageBars', 'yAxis', 'xAxis', 'yMarkers', 'yRegions', 'heatDomain', 'barGraph', 'lineGraph']);
  assert.equal(layers(trimmed), ['yAxis', 'xAxis', 'yMarkers', 'yRegions', 'lineGraph']);
  // Every layer AxisChart asks for by name, but the bar layer, is still in the table.
  const asked = [...new Set([...axisChart.matchAll(/^\t{3,4}'(\w+)'/gm)].map((m) => m[1]))];
  assert.ok(asked.includes('lineGraph') && asked.includes('yAxis'), asked.join());
  for (const name of asked.filter((n) => n !== 'barGraph')) assert.ok(layers(trimmed).includes(name), name);
  assert.not.ok(UNUSED_LAYERS.includes('lineGraph'));
  // The rest is whole: the file still compiles, and the part after the table is unchanged.
  esbuild.transformSync(trimmed, { loader: 'js', format: 'esm' });
  assert.ok(trimmed.endsWith(source.slice(source.indexOf('export function getComponent'))));
});

test('a layer that is not where the build expects it fails the build', () => {
  assert.throws(() => withoutLayers(source, ['radarSlices']), /radarSlices/);
  assert.throws(() => withoutLayers(source.replace('\n\tbarGraph: {', '\n    barGraph: {')), /barGraph/);
});

test.run();
