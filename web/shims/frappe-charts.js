// The console's `import('frappe-charts')` in the browser build (build.mjs aliases it here): the
// line chart class alone, from the package's own ES sources (src/js), instead of its UMD build,
// which holds every chart type (pie, donut, percentage, heatmap) in one closure a bundler cannot
// trim: 18.0 KB gzip before, 12.5 KB now. The UMD build adds the library's stylesheet to the page
// when it loads; so does this module, with the package's own copy of those rules (CSSTEXT, the
// one its SVG export embeds). Written for frappe-charts 1.6.2, pinned in package.json, since it
// depends on the package's source layout; tests/e2e/chart-library.test.ts draws the same charts
// with both builds and compares them. The build also leaves out the layers of the other chart
// types from the package's layer table (build/frappe.mjs).
import AxisChart from 'frappe-charts/src/js/charts/AxisChart.js';
import { CSSTEXT } from 'frappe-charts/src/css/chartsCss.js';
import { addStyleSheet } from '../lib/styles.ts';

addStyleSheet('frappe-charts-styles', CSSTEXT);

export { AxisChart };
