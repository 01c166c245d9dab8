/**
 * Keeping a committed result's files where they last (README "Saving results"): in the site's
 * `assetHandler`, else in the proxy's result store when the session says there is one. Not part of
 * the page's first load: `ResultValueController` imports it when a result is committed with files
 * to keep, after its value is out (the `input` event), and before `change`.
 */
import type { KeepSource, KeptFile, MediaClient } from '../../client/media-client.js';
import {
  checkAsset,
  type AssetHandler,
  type KeepFile,
  type ResultAsset,
  type ResultValueBase,
} from './result-checks.js';

export interface KeepContext {
  host: HTMLElement & { assetHandler: AssetHandler | undefined; keep: 'auto' | 'none' };
  kind: ResultValueBase['kind'];
  client: MediaClient;
  /** One key per file of a commit, so a retry keeps it once. */
  keys: WeakMap<KeepFile, string>;
  /** Whether this commit is still the element's (a newer one, a clear or a value set stops it). */
  current(): boolean;
  /** Keeping starts (the status line says so). */
  started(): void;
}

interface Named {
  key: string;
  filename: string;
  /** The Idempotency-Key the proxy's store is asked with (an image's retry is stored once). */
  idempotency: string;
}

const warned = new Set<string>();

/**
 * A file's unique, descriptive name: its stem (what it is) in safe characters, `-`, the id, its
 * extension: `model.glb` and `3f9a0c2b1d` make `model-3f9a0c2b1d.glb`.
 */
export function uniqueName(name: string, id: string): string {
  const dot = name.lastIndexOf('.');
  const ext =
    dot > 0
      ? name
          .slice(dot + 1)
          .replace(/[^A-Za-z0-9]+/g, '')
          .slice(0, 8)
          .toLowerCase()
      : '';
  const stem = (dot > 0 ? name.slice(0, dot) : name)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 60)
    .replace(/[-_]+$/, '');
  return `${stem || 'result'}-${id}${ext ? `.${ext}` : ''}`;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Keeps `files` (at least one; `keep` is not `none`): the kept assets, in order, or undefined when
 * nothing keeps them (no handler and no results store: one console warning per element name), or
 * when the commit stopped being current. Throws when a file could not be kept.
 */
export async function keepFiles(ctx: KeepContext, files: readonly KeepFile[]): Promise<ResultAsset[] | undefined> {
  const { host, client } = ctx;
  const handler = host.assetHandler;
  const store =
    !handler &&
    (await client.session().then(
      (s) => s.keep,
      () => false,
    ));
  if (!ctx.current()) return undefined;
  if (!handler && !store) {
    if (!warned.has(host.localName)) {
      warned.add(host.localName);
      console.warn(
        `[mediakit] <${host.localName}>: nothing keeps this result (no assetHandler, and the proxy has no results store), so its value has "asset": null and it will not outlive its links. See README "Saving results".`,
      );
    }
    return undefined;
  }
  if (!handler) ctx.started();
  const assets: ResultAsset[] = [];
  for (const file of files) {
    if (!ctx.current()) return undefined;
    const named = await nameOf(ctx, file);
    assets.push(handler ? await handOver(ctx, handler, file, named) : asset(await keepInStore(client, file, named)));
  }
  return assets;
}

async function handOver(ctx: KeepContext, handler: AssetHandler, file: KeepFile, named: Named): Promise<ResultAsset> {
  const blob = await file.blob();
  const answer = await handler(blob, { filename: named.filename, type: file.type, kind: ctx.kind, key: named.key });
  const problem = checkAsset({ url: answer?.url, type: file.type, bytes: blob.size }, 'assetHandler() result', false);
  if (problem) throw new TypeError(`assetHandler must resolve to { url, id? }: ${problem}.`);
  return { url: answer.url, type: file.type, bytes: blob.size, ...(answer.id ? { id: String(answer.id) } : {}) };
}

/**
 * A file's key and unique name: a job's file by its job (the same in every browser that follows
 * it: a hash of the handle, which names no job upstream), an image this page holds by a key of its own.
 */
async function nameOf(ctx: KeepContext, file: KeepFile): Promise<Named> {
  let key = ctx.keys.get(file);
  if (!key) ctx.keys.set(file, (key = crypto.randomUUID()));
  if (file.job) {
    const digest = await sha256Hex(`mediakit result\n${file.job.job}`);
    return {
      key: `${ctx.kind}-${digest.slice(0, 32)}-${file.job.file}`,
      filename: uniqueName(file.name, digest.slice(0, 10)),
      idempotency: key,
    };
  }
  const id = key.replace(/-/g, '');
  return { key: `${ctx.kind}-${id}`, filename: uniqueName(file.name, id.slice(0, 10)), idempotency: key };
}

async function keepInStore(client: MediaClient, file: KeepFile, named: Named): Promise<KeptFile> {
  const source: KeepSource = file.job ?? { blob: await file.blob(), name: named.filename };
  const kept = await client.keep(source, { idempotencyKey: named.idempotency });
  // The same rule as a site's handler: a value never names a script or other non-http(s) link,
  // even when an endpoint that is not our proxy answers one.
  const problem = checkAsset(kept, "the results store's answer", false);
  if (problem) throw new TypeError(`${client.endpoint} kept the file but ${problem}.`);
  return kept;
}

function asset(kept: KeptFile): ResultAsset {
  return { url: kept.url, type: kept.type, bytes: kept.bytes, id: kept.id };
}
