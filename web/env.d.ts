// Side-effect CSS imports are bundled by esbuild into a sibling .css file.
declare module '*.css';
// frappe-charts ships no types; ui/Chart.tsx declares the little it uses.
declare module 'frappe-charts' {
  export const Chart: new (parent: HTMLElement, options: Record<string, unknown>) => unknown;
}
