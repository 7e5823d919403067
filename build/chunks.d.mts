// Types of build/chunks.mjs for the TypeScript that imports it (its unit test).
export type Graph = Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
export declare function importGraph(root: string): Promise<Graph>;
export declare function staticClosure(graph: Graph, from: string): Set<string>;
export declare function lazyEntries(graph: Graph): string[];
export declare function sharedGeneric(graph: Graph): string[];
