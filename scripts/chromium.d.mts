// Types for chromium.mjs, imported by the TypeScript benchmark.
export function findChromium(): string | undefined;
export function ensureChromium(): string;
export const CHROMIUM_ARGS: string[];
