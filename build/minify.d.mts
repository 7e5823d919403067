// Types of build/minify.mjs for the TypeScript that imports it (tests).
export declare const TERSER_OPTIONS: Record<string, unknown>;
export declare function minifyOutputs(root: string, files: string[]): Promise<Record<string, number>>;
