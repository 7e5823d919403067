// The console's `import('frappe-charts')`: the line chart from the package's ES sources
// (web/shims/frappe-charts.js says why), without the chart layers no line chart draws.
//
// frappe-charts keeps the layers of every chart type in one table (objects/ChartComponents.js,
// `componentConfigs`); AxisChart asks `getComponent` for a layer by a name that holds its key
// ('yAxis', 'xAxis', 'yMarkers', 'yRegions', 'lineGraph-0', 'barGraph-0'). The console draws line
// charts only, so the donut, pie, percentage, heatmap and bar layers never come out of that table,
// and with them gone the drawing and animation helpers only they call go too. Written for
// frappe-charts 1.6.2 (pinned in package.json): a layer that is not where this expects it fails
// the build instead of shipping the table whole. tests/e2e/chart-library.test.ts draws the same
// charts with this build and the package's UMD build and compares markup and pixels.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The layers of the other chart types, as keys of `componentConfigs`. */
export const UNUSED_LAYERS = ['donutSlices', 'pieSlices', 'percentageBars', 'heatDomain', 'barGraph'];

const COMPONENTS = /[\\/]frappe-charts[\\/]src[\\/]js[\\/]objects[\\/]ChartComponents\.js$/;

/**
 * ChartComponents.js without the entries `keys` of its `componentConfigs` table: each entry runs
 * from its line `\tkey: {` to the brace that closes it (and the comma after it).
 */
export function withoutLayers(source, keys = UNUSED_LAYERS) {
  let out = source;
  for (const key of keys) {
    const start = out.indexOf(`\n\t${key}: {`);
    if (start < 0 || out.indexOf(`\n\t${key}: {`, start + 1) >= 0) throw new Error(`frappe-charts: the layer ${key} is not where build/frappe.mjs expects it`);
    let depth = 0;
    let end = out.indexOf('{', start);
    for (; end < out.length; end++) {
      if (out[end] === '{') depth++;
      else if (out[end] === '}' && --depth === 0) break;
    }
    if (depth !== 0) throw new Error(`frappe-charts: the layer ${key} does not end`);
    end++;
    if (out[end] === ',') end++;
    out = out.slice(0, start) + out.slice(end);
  }
  return out;
}

/** The esbuild plugin: the bare name to the stand-in, the layer table without the unused layers. */
export function frappeLineChart(web) {
  return {
    name: 'frappe-line-chart',
    setup(build) {
      // Only the bare name: the stand-in itself imports the package's files by path.
      build.onResolve({ filter: /^frappe-charts$/ }, () => ({ path: path.join(web, 'shims/frappe-charts.js') }));
      build.onLoad({ filter: COMPONENTS }, (args) => ({ contents: withoutLayers(readFileSync(args.path, 'utf8')), loader: 'js' }));
    },
  };
}
