// What the README's examples mention without defining: the page's own things.
declare const file: File;
declare const selfie: File;
declare const badge: HTMLElement;
declare const bar: HTMLProgressElement;
declare const signal: AbortSignal;
declare function render(record: import('../../src/jobs/index.js').JobRecord): void;
declare const myBackend: { mintedToken(): Promise<string> };
declare const sessions: { userFrom(cookie: string | null): Promise<{ id: string; plan: { dailyCredits: number } } | null> };
declare const savedJson: string;
declare function authorize(request: Request): import('../../src/proxy/index.js').AuthorizeResult | null;
declare const redis: import('../../src/proxy/index.js').RedisEvalClient;
declare const proxy: import('../../src/proxy/index.js').Proxy;
interface ExampleRequest {
  body: { url: string; name: string; type: string };
  headers: { cookie?: string };
}
interface ExampleResponse {
  status(code: number): { end(): void };
  json(body: unknown): void;
}
declare const app: {
  post(path: string, ...handlers: ((req: ExampleRequest, res: ExampleResponse) => unknown)[]): void;
};
declare function requireUser(req: ExampleRequest, res: ExampleResponse): void;
declare const cms: {
  media: { upload(file: { name: string; type: string; body: ReadableStream<Uint8Array> | null }): Promise<{ id: string }> };
};
