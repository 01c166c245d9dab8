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

// The CMS recipes' own packages (the example apps install them; this repository does not): only
// what the recipes call, so the check is of how they use the elements and the proxy.
declare module '@payloadcms/ui' {
  export function useField<T = unknown>(options: { path: string }): { value: T; setValue(value: T): void };
  export function FieldLabel(props: { label: unknown; path: string }): import('react').ReactElement;
}
declare module 'payload' {
  export type CollectionConfig = { slug: string; [option: string]: unknown };
  export class APIError extends Error {
    constructor(message: string, status?: number);
  }
  export function getPayload(options: { config: unknown }): Promise<{
    auth(options: { headers: Headers }): Promise<{ user: { id: string | number } | null }>;
  }>;
}
declare module '@payload-config' {
  const config: unknown;
  export default config;
}
declare module '@wordpress/block-editor' {
  export function useBlockProps(props?: Record<string, unknown>): Record<string, unknown>;
}
declare module '@wordpress/element' {
  export { useEffect, useRef } from 'react';
}
declare module '@wordpress/media-utils' {
  export function uploadMedia(options: {
    filesList: File[];
    multiple?: boolean;
    additionalData?: Record<string, unknown>;
    onFileChange(attachments: { id?: number; url: string }[]): void;
    onError(error: Error): void;
  }): void;
}
