// Types of build/compile-hints.mjs for the TypeScript that imports it (tests).
export declare const COMPILE_HINT: string;
export declare function hintedFiles(outputs: Record<string, { entryPoint?: string; imports: { path: string; kind: string }[] }>, entries: string[]): string[];
export declare function addCompileHints(root: string, outputs: Record<string, { bytes: number }>, files: string[]): void;
