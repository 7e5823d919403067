// Types of build/budgets.mjs for the TypeScript that imports it (the benchmark).
interface Output {
  entryPoint?: string;
  imports: { path: string; kind: string }[];
  inputs: Record<string, unknown>;
}
export declare const BUDGETS: { login: number; lazyChunk: number; total: number; loginModules: number };
export declare const EXEMPT: RegExp[];
export declare function loginFiles(outputs: Record<string, Output>, index: string): Set<string>;
export declare function isExempt(outputs: Record<string, Output>, file: string): boolean;
