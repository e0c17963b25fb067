// Types of server/compile.js (plain JavaScript: it runs before anything can be transpiled).
export declare const ROOT: string;
export declare const OUT_DIR: string;
export declare const ENTRIES: Record<string, string>;
export declare const BUILD_INPUTS: string[];
export declare const BUNDLED_PACKAGES: string[];
export declare function isServerStale(root?: string, outDir?: string): boolean;
export declare function compileServer(root?: string, outDir?: string): Promise<{ ms: number; inputs: number }>;
