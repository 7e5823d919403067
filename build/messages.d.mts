// Types of build/messages.mjs for the TypeScript that imports it (its unit test).
export declare function splitMessages(src: string, prefix?: string): { code: string; zh: string[][] };
