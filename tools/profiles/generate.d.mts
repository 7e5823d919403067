// Types of tools/profiles/generate.mjs for the TypeScript that imports it (the data test).
export declare const RELEASES: string[];
export declare const REFERENCE_DIR: string;
export declare const OUT_DIR: string;
export declare function generate(referenceDir?: string): Map<string, string>;
export declare function unusedRows(): string[];
