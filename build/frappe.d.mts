// Types of build/frappe.mjs for the TypeScript that imports it (tests).
import type { Plugin } from 'esbuild';
export declare const UNUSED_LAYERS: string[];
export declare function withoutLayers(source: string, keys?: string[]): string;
export declare function frappeLineChart(web: string): Plugin;
