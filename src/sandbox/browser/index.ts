/**
 * The sandbox in a browser: the same platform-free core as Node's `createSandbox`, on the
 * browser's platform (./platform.ts). Used by the playground (a Service Worker at the elements'
 * endpoint) and by the contract tests, which run the same suite against both platforms.
 */
import { createSandboxOn, type Sandbox, type SandboxOptions } from '../create-sandbox.js';
import type { SandboxPlatform } from '../platform.js';
import { browserPlatform } from './platform.js';

export type { Sandbox, SandboxOptions, SandboxPlatform };

/**
 * Creates a sandbox of the media API in this browser context: `{ fetch(request) }`. `overrides`
 * replace single makers (the playground's Service Worker, which has no WebCodecs, hands the video
 * ones to a page).
 */
export function createBrowserSandbox(options: SandboxOptions = {}, overrides: Partial<SandboxPlatform> = {}): Sandbox {
  return createSandboxOn({ ...browserPlatform(), ...overrides }, options);
}
