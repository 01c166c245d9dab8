/**
 * `s3ResultStore`: kept results in an S3 bucket (AWS, or any S3-compatible service: R2, MinIO,
 * Backblaze, s3rver), the package's `@mediakit/elements/proxy/s3` entry. The AWS SDK is imported
 * here only, so the proxy itself never loads it.
 *
 * Uploads stream through `@aws-sdk/lib-storage`'s `Upload` (multipart, 5 MiB parts, at most
 * `queueSize` parts in memory), so a 500 MB scene never sits in memory. A failed stream aborts the
 * multipart upload: no object appears under the key. The metadata (`KeptMeta`) is the object's
 * Content-Type and user metadata (`x-amz-meta-*`, ASCII).
 *
 * With `publicBaseUrl` (a public bucket or a CDN in front of it), kept results answer that URL,
 * and the objects carry `Cache-Control: public, max-age=31536000, immutable` and an inline
 * Content-Disposition; the proxy's own `/results/<id>/<name>` path serves them too. Such a store
 * is public (`publicUrls`): `createProxy` refuses it with `results.access` other than `'public'`.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  type GetObjectCommandOutput,
  type HeadObjectCommandOutput,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { checkKey, keptMetaOf, type KeptMeta, type ResultStore } from './result-store.js';

export type { KeptMeta, ResultStore } from './result-store.js';

export interface S3ResultStoreOptions {
  /** A configured `S3Client` from `@aws-sdk/client-s3`. */
  client: S3Client;
  bucket: string;
  /** Prepended to every key, for example `kept/`. Default none. */
  prefix?: string;
  /**
   * The public base URL of the bucket or its CDN (`https://cdn.example/kept`): kept results answer
   * `<publicBaseUrl>/<prefix><key>`, readable by anyone with the link (only with `access: 'public'`).
   */
  publicBaseUrl?: string | URL;
  /** Multipart part size in bytes. Default 5 MiB, S3's minimum (the SDK copies each part: smaller parts, less memory). */
  partSize?: number;
  /** Parts uploaded at once (each held in memory until it is sent). Default 1 (measured: 47 MiB growth keeping 500 MB on s3rver; 2 in flight grew 83-91 MiB). */
  queueSize?: number;
}

const MiB = 1024 * 1024;

function missing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

function metaOf(output: HeadObjectCommandOutput | GetObjectCommandOutput): KeptMeta | undefined {
  const m = output.Metadata ?? {};
  return keptMetaOf({
    type: output.ContentType,
    name: m['name'],
    owner: m['owner'],
    subject: m['subject'],
    created: m['created'],
  });
}

export function s3ResultStore(options: S3ResultStoreOptions): ResultStore {
  if (!options || typeof options.client?.send !== 'function')
    throw new TypeError('s3ResultStore: `client` must be an S3Client from @aws-sdk/client-s3.');
  if (typeof options.bucket !== 'string' || options.bucket === '')
    throw new TypeError('s3ResultStore: `bucket` is required: the bucket kept results are written to.');
  const prefix = options.prefix ?? '';
  if (typeof prefix !== 'string' || !/^[A-Za-z0-9!_.*'()/-]{0,200}$/.test(prefix))
    throw new TypeError(
      `s3ResultStore: prefix must be at most 200 characters of letters, digits and !_.*'()/-; it was ${JSON.stringify(String(prefix)).slice(0, 60)}.`,
    );
  let publicBase: string | undefined;
  if (options.publicBaseUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(String(options.publicBaseUrl));
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
      throw new TypeError('s3ResultStore: publicBaseUrl must be an http(s) URL such as "https://cdn.example/kept".');
    publicBase = url.href.replace(/\/+$/, '');
  }
  const partSize = options.partSize ?? 5 * MiB;
  const queueSize = options.queueSize ?? 1;
  if (!Number.isInteger(partSize) || partSize < 5 * MiB)
    throw new TypeError('s3ResultStore: partSize must be a whole number of bytes, at least 5 MiB (S3 minimum).');
  if (!Number.isInteger(queueSize) || queueSize < 1 || queueSize > 16)
    throw new TypeError('s3ResultStore: queueSize must be a whole number from 1 to 16.');
  const { client, bucket } = options;
  const objectKey = (key: string) => prefix + checkKey(key);
  const urlOf = (key: string) => (publicBase ? `${publicBase}/${objectKey(key)}` : undefined);

  return {
    publicUrls: publicBase !== undefined,

    async put(key, body, meta) {
      let bytes = 0;
      const counted = body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            bytes += chunk.byteLength;
            controller.enqueue(chunk);
          },
        }),
      );
      const upload = new Upload({
        client,
        partSize,
        queueSize,
        leavePartsOnError: false,
        params: {
          Bucket: bucket,
          Key: objectKey(key),
          Body: counted,
          ContentType: meta.type,
          ContentDisposition: `inline; filename="${meta.name}"`,
          ...(publicBase ? { CacheControl: 'public, max-age=31536000, immutable' } : {}),
          Metadata: { name: meta.name, owner: meta.owner, subject: meta.subject, created: meta.created },
        },
      });
      await upload.done();
      const url = urlOf(key);
      return url ? { bytes, url } : { bytes };
    },

    async get(key, range) {
      let output: GetObjectCommandOutput;
      try {
        output = await client.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: objectKey(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
          }),
        );
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
      const meta = metaOf(output);
      const stream = output.Body?.transformToWebStream() as ReadableStream<Uint8Array> | undefined;
      if (!meta || !stream) {
        await stream?.cancel();
        return null;
      }
      const total = /\/(\d+)$/.exec(output.ContentRange ?? '')?.[1];
      return { body: stream, meta, bytes: total !== undefined ? Number(total) : (output.ContentLength ?? 0) };
    },

    async head(key) {
      let output: HeadObjectCommandOutput;
      try {
        output = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
      const meta = metaOf(output);
      if (!meta) return null;
      const url = urlOf(key);
      return { meta, bytes: output.ContentLength ?? 0, ...(url ? { url } : {}) };
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },
  };
}
