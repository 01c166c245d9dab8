import type { Plugin } from 'vite';
export const WORKER_FILE: string;
export const noNodeBuiltins: Plugin;
export function bundlePlaygroundWorker(options?: { minify?: boolean }): Promise<string>;
