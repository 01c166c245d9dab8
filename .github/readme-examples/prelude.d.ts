// What the README's examples mention without defining: the page's own things.
declare const file: File;
declare const selfie: File;
declare const badge: HTMLElement;
declare const bar: HTMLProgressElement;
declare const signal: AbortSignal;
declare function render(record: import('../../src/jobs/index.js').JobRecord): void;
declare const myBackend: { mintedToken(): Promise<string> };
declare const sessions: { userFrom(cookie: string | null): Promise<{ id: string; plan: { dailyCredits: number } } | null> };
