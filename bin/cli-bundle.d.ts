// Types of cli-bundle.js (plain JavaScript: the launcher runs it without tsx).
import type { Plugin } from 'esbuild';

export declare const builtinImportsAsRequire: Plugin;
/** The cached command-line script's path, built first when missing or stale; undefined when it cannot be had. */
export declare function cliBundle(): Promise<string | undefined>;
