// Side-effect CSS imports are bundled by esbuild into a sibling .css file.
declare module '*.css';
// frappe-charts ships no types; ui/Chart.tsx declares the little it uses.
declare module 'frappe-charts' {
  export const Chart: new (parent: HTMLElement, options: Record<string, unknown>) => unknown;
  /** The line and bar chart class `Chart` builds for `type: 'line'`. */
  export class AxisChart {
    constructor(parent: HTMLElement, options: Record<string, unknown>);
    prepareFirstData(data: unknown): unknown;
    draw(onlyWidthChange?: boolean, init?: boolean): void;
    update(data: unknown): void;
    destroy(): void;
  }
}
