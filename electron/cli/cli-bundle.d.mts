// Types of cli-bundle.mjs (plain JavaScript, so bin.mjs runs it without a TypeScript loader).
export declare const projectRoot: string;
export declare function cliOutDir(root?: string): string;
export declare function cliBundleState(outDir?: string): { fresh: true; entry: string } | { fresh: false; reason: string };
export declare function buildCliBundle(options?: { root?: string; outDir?: string }): Promise<{ entry: string; inputs: string[]; ms: number }>;
