/**
 * `MediaClient`: every endpoint of the media API as a typed method, called through the site's
 * session-token proxy (never with an API key). It validates input before a byte is sent, holds
 * the session token, sends an Idempotency-Key with every creating call and reuses it on every
 * retry, waits out 429s, reports upload progress, and keeps the page's credit ledger current.
 */
import {
  HEADERS,
  IDEMPOTENCY_KEY_PATTERN,
  routePath,
  type RouteName,
  type HeadshotBatch,
  type ModelJob,
  type ModelJobCreated,
  type VideoJob,
  type VideoJobCreated,
} from '../api/index.js';
import type {
  CallOptions,
  CreateOptions,
  HeadshotInput,
  ImageToolImage,
  ImageToolInput,
  KeepSource,
  KeptFile,
  MediaClientOptions,
  ModelJobInput,
  SessionBudget,
} from './client-types.js';
import { CreditLedger } from './credit-ledger.js';
import { fetchWithRetry, type Line, type SendInit } from './fetch-retry.js';
import { SessionManager, type SessionInfo } from './session.js';
import { scopeOf, subjectArrived } from './stored-data.js';
import { ValidationError } from './validate.js';
import { isOwnObjectUrl } from '../api/object-url.js';

/** The photo, headshot and image-tool calls with their checks, loaded by the first of them (a video-only page never does). */
const imageCalls = () => import('./image-calls.js');
/** The body of a keeping call loads with the first result kept. */
const keepCall = () => import('./keep-call.js');
/** The video's checks load with the first video sent (a page that only shows jobs never does). */
const videoChecks = () => import('./validate-video.js');

export type {
  CallOptions,
  CreateOptions,
  HeadshotInput,
  ImageToolImage,
  ImageToolInput,
  KeepSource,
  KeptFile,
  MediaClientOptions,
  ModelJobInput,
  SessionBudget,
} from './client-types.js';

/** Handles from the proxy: one URL-safe segment. */
const HANDLE = /^[A-Za-z0-9_-]{1,400}$/;

const clients = new Map<string, MediaClient>();

export class MediaClient {
  /** The page's one shared client for `endpoint` (every element with that endpoint uses it). */
  static for(endpoint = '/mediakit'): MediaClient {
    const url = resolveEndpoint(endpoint);
    let client = clients.get(url);
    if (!client) clients.set(url, (client = new MediaClient({ endpoint: url })));
    return client;
  }

  /** Absolute URL of the proxy, without a trailing slash. */
  readonly endpoint: string;
  /** The credits left for this endpoint, updated by every response, here and in other tabs. */
  readonly credits: CreditLedger;
  /** The session, the ledger, the retry limits and the server's clock offset every call goes through. */
  readonly #line: Line;
  readonly #session: SessionManager;
  readonly #crossOrigin: boolean;

  constructor(options: MediaClientOptions = {}) {
    this.endpoint = resolveEndpoint(options.endpoint ?? '/mediakit');
    this.#crossOrigin = typeof location !== 'undefined' && new URL(this.endpoint).origin !== location.origin;
    this.credits = new CreditLedger(this.endpoint);
    const own = options.session;
    // A token for another subject: the previous user of this browser is gone, so is what they left here.
    this.#session = new SessionManager(own ? () => own() : (signal) => this.#newSession(signal), (subjectHash) =>
      subjectArrived(this.endpoint, subjectHash),
    );
    this.#line = {
      session: this.#session,
      credits: this.credits,
      attempts: Math.max(1, options.attempts ?? 4),
      maxWait: options.maxRetryAfterSeconds ?? 60,
      crossOrigin: this.#crossOrigin,
      clockOffset: 0,
    };
  }

  /** The current session (fetched if needed). */
  session(options: CallOptions = {}): Promise<SessionInfo> {
    return this.#session.get(options.signal);
  }

  /**
   * The time by the proxy's clock (from the Date header of its last answer), for instants the API
   * states, such as when download links expire; a visitor's clock can be off by minutes.
   */
  serverNow(): number {
    return Date.now() + this.#line.clockOffset;
  }

  /** Where this user's jobs are stored: the endpoint and the session's subject (hashed). */
  async scope(options: CallOptions = {}): Promise<string> {
    return scopeOf(this.endpoint, (await this.#session.get(options.signal)).subjectHash);
  }

  // ---------------------------------------------------------------- video to 3D

  /** Uploads a walkthrough video and starts a reconstruction (20 credits; refunded if it fails). */
  async createVideoJob(video: Blob, options: CreateOptions = {}): Promise<VideoJobCreated> {
    await (await videoChecks()).validateVideo(video, options.signal);
    const form = new FormData();
    form.set('video_file', video, video instanceof File && video.name ? video.name : 'walkthrough.mp4');
    return (await (await this.#post('createVideoJob', options)(form)).json()) as VideoJobCreated;
  }

  async getVideoJob(jobId: string, options: CallOptions = {}): Promise<VideoJob> {
    const r = await this.#send(routePath('getVideoJob', checkHandle(jobId)), { method: 'GET', signal: options.signal });
    return ((await r.json()) as { data: VideoJob }).data;
  }

  // ---------------------------------------------------------------- 3D generation

  /** Starts a 3D model job from photos or a prompt (2 credits; refunded if it fails). */
  async createModelJob(input: ModelJobInput, options: CreateOptions = {}): Promise<ModelJobCreated> {
    return (await imageCalls()).createModelJob(input, options.signal, this.#post('createModelJob', options));
  }

  async getModelJob(jobId: string, options: CallOptions = {}): Promise<ModelJob> {
    const r = await this.#send(routePath('getModelJob', checkHandle(jobId)), { method: 'GET', signal: options.signal });
    return ((await r.json()) as { data: ModelJob }).data;
  }

  // ---------------------------------------------------------------- synchronous tools

  /** Styled headshots from one selfie (2.5 credits per succeeded variant, rounded down). */
  async headshots(input: HeadshotInput, options: CreateOptions = {}): Promise<HeadshotBatch> {
    return (await imageCalls()).headshots(input, this.#post('headshots', options));
  }

  /** Background removal (1 credit per successful call). */
  async imageTool(input: ImageToolInput, options: CreateOptions = {}): Promise<ImageToolImage> {
    const r = await (await imageCalls()).imageTool(input, this.#post('imageTool', options));
    return {
      blob: await r.blob(),
      credits_charged: Number(r.headers.get(HEADERS.creditsCharged) ?? 0),
      credits_remaining: Number(r.headers.get(HEADERS.creditsRemaining) ?? 0),
    };
  }

  // ---------------------------------------------------------------- credits, files

  /** This session's budget (what `<credit-badge>` shows); also updates `credits`. */
  async budget(options: CallOptions = {}): Promise<SessionBudget> {
    const r = await this.#send('/session', { method: 'GET', signal: options.signal });
    const budget = ((await r.json()) as { data: { budget: SessionBudget } }).data.budget;
    this.credits.set(budget.remaining);
    return budget;
  }

  /** The site's whole account balance, where the proxy shares it (`exposeAccountBalance`); 403 otherwise. */
  async account(options: CallOptions = {}): Promise<{ balance: number }> {
    const r = await this.#send(routePath('account'), { method: 'GET', signal: options.signal });
    return ((await r.json()) as { data: { credits: { balance: number } } }).data.credits;
  }

  /**
   * Fetches a file from a job's output (a download URL the proxy gave). Only this proxy's URLs
   * are fetched; an expired link is an ApiError `link_expired`: poll the job for a fresh one.
   */
  async download(url: string, options: CallOptions = {}): Promise<Blob> {
    const r = await fetchWithRetry(this.#line, this.fileUrl(url), { method: 'GET', signal: options.signal }, false);
    return r.blob();
  }

  /**
   * The absolute URL of a file link from an answer (`ply_url` and the like), for a viewer that
   * reads it itself; throws a ValidationError for a link outside `{endpoint}` (what a hostile
   * answer would carry), as `download()` does. An object URL of this document passes.
   */
  fileUrl(url: string): string {
    const target = new URL(url, this.endpoint + '/');
    // An object URL of this document (the playground, where it runs in the page, answers its files so).
    if (isOwnObjectUrl(target)) return target.href;
    if (
      target.origin !== new URL(this.endpoint).origin ||
      !(target.pathname + '/').startsWith(new URL(this.endpoint).pathname.replace(/\/?$/, '/'))
    ) {
      throw new ValidationError(
        'invalid_request',
        'url',
        `download() fetches files from ${this.endpoint} only; open other URLs directly.`,
      );
    }
    return target.href;
  }

  /**
   * Keeps a result in the proxy's result store (`POST {endpoint}/results`): a finished job's file,
   * streamed by the proxy from upstream, or an image only this page holds (a headshot, a cut-out).
   * The answer's `url` does not expire. Never charges credits; keeping the same job file, or the
   * same image under the same key, twice stores it once. Needs a session whose `keep` is true.
   */
  async keep(source: KeepSource, options: CallOptions & { idempotencyKey?: string } = {}): Promise<KeptFile> {
    if ('job' in source) checkHandle(source.job);
    const key = idempotencyKey(options);
    const { keepInit } = await keepCall();
    const init = keepInit(source, key, options.signal);
    const r = await this.#send('/results', init);
    const kept = ((await r.json()) as { data: KeptFile }).data;
    // The proxy answers a path on its own origin: on a page of another origin it must stay the proxy's.
    return this.#crossOrigin ? { ...kept, url: new URL(kept.url, this.endpoint).href } : kept;
  }

  // ---------------------------------------------------------------- transport

  async #newSession(signal?: AbortSignal): Promise<string> {
    const r = await fetchWithRetry(this.#line, this.endpoint + '/session', { method: 'POST', signal }, false);
    const data = ((await r.json()) as { data: { token: string; budget?: { remaining?: number } } }).data;
    if (typeof data.budget?.remaining === 'number') this.credits.set(data.budget.remaining);
    return data.token;
  }

  /** Sends a creating call's checked body: `beforeSend` first, then with its Idempotency-Key, signal, progress and wait hooks. */
  #post(route: RouteName, options: CreateOptions) {
    return async (body: XMLHttpRequestBodyInit, headers?: Record<string, string>): Promise<Response> => {
      await options.beforeSend?.();
      return this.#send(routePath(route), {
        method: 'POST',
        body,
        headers,
        key: idempotencyKey(options),
        signal: options.signal,
        onProgress: options.onProgress,
        onWait: options.onWait,
      });
    };
  }

  #send(path: string, init: SendInit): Promise<Response> {
    return fetchWithRetry(this.#line, this.endpoint + path, init, true);
  }
}

function resolveEndpoint(endpoint: string): string {
  const base = typeof document !== 'undefined' ? document.baseURI : 'http://localhost/';
  return new URL(endpoint, base).href.replace(/\/+$/, '');
}

function idempotencyKey(options: CreateOptions): string {
  const key = options.idempotencyKey ?? crypto.randomUUID();
  if (!IDEMPOTENCY_KEY_PATTERN.test(key))
    throw new ValidationError(
      'invalid_request',
      'idempotencyKey',
      'idempotencyKey must be 1-255 printable ASCII characters without spaces; a UUID is ideal.',
    );
  return key;
}

function checkHandle(jobId: string): string {
  if (typeof jobId !== 'string' || !HANDLE.test(jobId))
    throw new ValidationError(
      'invalid_request',
      'job_id',
      'job_id must be the id this session was given when it created the job.',
    );
  return jobId;
}
