// From README.md, extracted by scripts/readme.mjs: edit the README, not this file.
export {};
interface ResultStore {
  put(key: string, body: ReadableStream<Uint8Array>, meta: KeptMeta): Promise<{ bytes: number; url?: string }>;
  get(key: string, range?: { start: number; end?: number }): Promise<{ body: ReadableStream<Uint8Array>; meta: KeptMeta; bytes: number } | null>;
  head(key: string): Promise<{ meta: KeptMeta; bytes: number; url?: string } | null>;
  delete(key: string): Promise<void>;
}
interface KeptMeta { type: string; name: string; owner: string; subject: string; created: string }
