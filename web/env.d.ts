// Side-effect CSS imports are bundled by esbuild into a sibling .css file.
declare module '*.css';
// frappe-charts ships no types; ui/Chart.tsx declares the little it uses.
declare module 'frappe-charts' {
  /** The line and bar chart (what the package's `Chart` builds for `type: 'line'`). */
  export class AxisChart {
    constructor(parent: HTMLElement, options: Record<string, unknown>);
    prepareFirstData(data: unknown): unknown;
    draw(onlyWidthChange?: boolean, init?: boolean): void;
    update(data: unknown): void;
    destroy(): void;
    /** Makes the chart's layers (`components`, by name: 'xAxis', 'yAxis', 'lineGraph-0' …). */
    setupComponents(): void;
    components: Map<string, { getData(): { positions: number[]; calcLabels: string[] } }>;
    /** The element the chart was made in. */
    parent: HTMLElement;
  }
}
