/**
 * The asynchronous endpoints: video-to-3D and 3D generation jobs (create, poll, downloads).
 */
import { COSTS, HEADERS, LIMITS, routePath, type RouteMatch } from '../api/index.js';
import type { AccountBook, Account, ResolvedKey } from './accounts.js';
import type { SandboxClock } from './clock.js';
import { chargeHeaders, fail, json } from './http.js';
import { checkImage, decodable, decodeDataUrl, fetchImageUrl, inspectVideo, isUpload, type Body } from './inputs.js';
import {
  modelJobDurationMs,
  videoJobDurationMs,
  viewModelJob,
  viewVideoJob,
  type JobRecord,
  type ModelJobRecord,
  type VideoJobRecord,
} from './jobs.js';
import { downloadFile, modelView, providerModelFile, videoView } from './job-links.js';
import { LinkSigner, newJobId } from './links.js';
import type { SandboxPlatform } from './platform.js';
import { modelParams, onlyKnownFields } from './params.js';

export interface ArtifactOptions {
  /** Video frames turned into wall panels of the splat scene. Default 6. */
  sceneFrames?: number;
  /** Splat columns per panel. Default 40 (about 6 000 splats in all). */
  sceneColumns?: number;
  /** Turntable frames (12 fps). Default 36. */
  turntableFrames?: number;
  /** Turntable width and height. Default 256. */
  turntableSize?: number;
}

interface RegistryOptions {
  secret?: string;
  videoRetentionMs?: number;
  fetchImage?: typeof fetch;
  imageUrlTimeoutMs?: number;
  imageUrls?: { allowLoopback?: boolean; maxRedirects?: number };
  artifacts?: ArtifactOptions;
}

export class JobRegistry {
  readonly #jobs = new Map<string, JobRecord>();
  readonly #byAccount = new Map<string, JobRecord[]>();
  readonly #pending = new Set<Promise<unknown>>();
  readonly #links: LinkSigner;

  constructor(
    private readonly accounts: AccountBook,
    private readonly clock: SandboxClock,
    private readonly options: RegistryOptions,
    private readonly platform: SandboxPlatform,
  ) {
    this.#links = new LinkSigner(platform.sha256, options.secret);
  }

  async idle(): Promise<void> {
    while (this.#pending.size) await Promise.allSettled([...this.#pending]);
  }

  // ------------------------------------------------------------------ create

  async createVideo(body: Body, auth: ResolvedKey): Promise<Response> {
    onlyKnownFields(body, ['video_file']);
    const file = body.fields.get('video_file');
    if (file === undefined)
      fail('invalid_request', 'video_file is required: send the video as a multipart file field named video_file.');
    if (typeof file === 'string')
      fail('invalid_request', 'video_file must be a file part (with a filename), not a text field.');
    const input = isUpload(file) ? file : new Uint8Array(await file.arrayBuffer());
    const info = await inspectVideo(input, this.platform);
    const account = auth.account;
    this.accounts.requireAvailable(account, COSTS.videoJob);
    if (this.accounts.takeFault(account, 'create_error'))
      fail(
        'provider_error',
        'The provider could not start the reconstruction. Nothing was charged; try again in a moment.',
      );
    const job: VideoJobRecord = {
      kind: 'video',
      id: newJobId(),
      accountId: account.id,
      apiKey: auth.key,
      createdAt: this.clock.now(),
      // A pending `slow` fault: the job takes that much more real time (a busy provider's queue).
      durationMs: videoJobDurationMs(info.durationSeconds) + this.accounts.takeSlowFault(account) * this.clock.speed,
      failing: this.accounts.takeFault(account, 'job_fail'),
      artifactFailed: false,
      refunded: false,
      artifact: undefined,
      expired: false,
    };
    this.accounts.charge(account, COSTS.videoJob, job.createdAt, 'createVideoJob', job.id);
    this.#add(job);
    if (!job.failing) {
      const a = this.options.artifacts ?? {};
      // The job keeps the spooled upload until its scene is built, then deletes it.
      if (isUpload(input)) input.kept = true;
      this.#track(
        this.platform
          .buildScene({ video: input, ...info }, { frames: a.sceneFrames, columns: a.sceneColumns })
          .then(
            (artifact) => (job.artifact = artifact),
            () => (job.artifactFailed = true),
          )
          .finally(() => (isUpload(input) ? input.dispose() : undefined)),
      );
    }
    return json(
      {
        data: { job_id: job.id, status: 'queued' },
        credits_charged: COSTS.videoJob,
        credits_remaining: account.balance,
      },
      202,
      chargeHeaders(COSTS.videoJob, account.balance),
    );
  }

  async createModel(body: Body, auth: ResolvedKey): Promise<Response> {
    const params = modelParams(body);
    const images: Uint8Array[] = [];
    for (const [i, src] of params.images.entries()) {
      const field = `images[${i}]`;
      const bytes = src.startsWith('data:')
        ? decodeDataUrl(src, field)
        : await fetchImageUrl(src, field, this.#urlOptions(), this.platform);
      checkImage(bytes, field);
      await decodable(bytes, field, this.platform);
      images.push(bytes);
    }
    const account = auth.account;
    this.accounts.requireAvailable(account, COSTS.modelJob);
    if (this.accounts.takeFault(account, 'create_error'))
      fail(
        'provider_error',
        'The provider could not start the generation. Nothing was charged; try again in a moment.',
      );
    const quality = params.quality;
    const seed = params.seed ?? crypto.getRandomValues(new Uint32Array(1))[0]!;
    const job: ModelJobRecord = {
      kind: 'model',
      id: newJobId(),
      accountId: account.id,
      apiKey: auth.key,
      createdAt: this.clock.now(),
      durationMs:
        modelJobDurationMs(quality, params.mode, images.length) +
        this.accounts.takeSlowFault(account) * this.clock.speed,
      failing: this.accounts.takeFault(account, 'job_fail'),
      artifactFailed: false,
      refunded: false,
      mode: params.mode,
      quality,
      seed,
      reference: undefined,
      artifact: undefined,
    };
    // Text mode renders the square reference first (spec), so it exists from the 202 on.
    if (params.mode === 'text') {
      job.reference = await this.platform.renderReference(params.prompt!, seed, 1024);
      images.push(job.reference);
    }
    job.createdAt = this.clock.now();
    this.accounts.charge(account, COSTS.modelJob, job.createdAt, 'createModelJob', job.id);
    this.#add(job);
    if (!job.failing) this.#track(this.#generate(job, images, params.removeBackground));
    const headers = {
      ...chargeHeaders(COSTS.modelJob, account.balance),
      [HEADERS.location]: routePath('getModelJob', job.id),
    };
    // The 202 reports the job as created (spec: queued), whatever a fast clock did meanwhile.
    const created = { ...modelView(job, this.clock, this.#links), status: 'queued' as const, progress: 0 };
    return json({ data: created, credits_charged: COSTS.modelJob, credits_remaining: account.balance }, 202, headers);
  }

  async #generate(job: ModelJobRecord, images: Uint8Array[], removeBg: boolean): Promise<void> {
    try {
      const { textureSize } = LIMITS.model.qualitySettings[job.quality];
      const sources = removeBg
        ? await Promise.all(
            images.map(async (img) => {
              const cut = await this.platform.removeBackground(img);
              return this.platform.encodePng(cut.rgba, cut.width, cut.height);
            }),
          )
        : images;
      const relief = await this.platform.buildRelief(sources, { textureSize, seed: job.seed, cutout: removeBg });
      const a = this.options.artifacts ?? {};
      const [stats, turntable] = await Promise.all([
        this.platform.glbStats(relief.glb),
        this.platform.encodeTurntable(relief.faces, { frames: a.turntableFrames, size: a.turntableSize }),
      ]);
      job.artifact = { glb: relief.glb, turntable, stats };
    } catch (err) {
      console.error('[sandbox] generation failed', err);
      job.artifactFailed = true;
    }
  }

  // ------------------------------------------------------------------ poll

  poll(match: RouteMatch, auth: ResolvedKey): Response {
    const job = this.#jobs.get(match.jobId!);
    const kind = match.route.name === 'getVideoJob' ? 'video' : 'model';
    // Another key's job, or a job of the other kind, does not exist for this key (spec: a key can only see jobs it created).
    if (!job || job.apiKey !== auth.key || job.kind !== kind)
      fail(
        'not_found',
        'No job with this id exists for this API key. Check the id; a key can only see jobs it created.',
      );
    this.#settleJob(job);
    return json({
      data: job.kind === 'video' ? videoView(job, this.clock, this.#links) : modelView(job, this.clock, this.#links),
    });
  }

  // ------------------------------------------------------------------ downloads

  download(match: RouteMatch, url: URL): Response {
    const job = this.#jobs.get(match.jobId!);
    if (!job) fail('not_found', 'No job with this id exists.');
    this.#settleJob(job);
    return downloadFile(job, match, url, this.clock, this.#links);
  }

  providerModel(jobId: string, url: URL): Response {
    return providerModelFile(this.#jobs.get(jobId), url, this.clock, this.#links);
  }

  // ------------------------------------------------------------------ settlement

  /** Applies refunds of failed jobs and expiry of old results for one account. */
  settle(account: Account): void {
    for (const job of this.#byAccount.get(account.id) ?? []) this.#settleJob(job);
  }

  expireVideoJobs(account: Account, max: number): number {
    let n = 0;
    for (const job of this.#byAccount.get(account.id) ?? []) {
      if (n >= max) break;
      if (job.kind === 'video' && !job.expired && viewVideoJob(job, this.clock.now()).status === 'succeeded') {
        job.expired = true;
        n++;
      }
    }
    return n;
  }

  #settleJob(job: JobRecord): void {
    const now = this.clock.now();
    const view = job.kind === 'video' ? viewVideoJob(job, now) : viewModelJob(job, now);
    if (view.status === 'failed' && !job.refunded) {
      const account = this.accounts.get(job.accountId)!;
      const amount = job.kind === 'video' ? COSTS.videoJob : COSTS.modelJob;
      // Marked only once the refund is written: a refund that threw is tried again on the next poll.
      this.accounts.refund(
        account,
        amount,
        view.failedAt ?? now,
        job.kind === 'video' ? 'createVideoJob' : 'createModelJob',
        job.id,
      );
      job.refunded = true;
    }
    if (job.kind === 'video' && view.status === 'succeeded') {
      const retention = this.options.videoRetentionMs ?? 7 * 24 * 60 * 60 * 1000;
      if (now >= job.createdAt + job.durationMs + retention) job.expired = true;
    }
  }

  // ------------------------------------------------------------------ helpers

  #add(job: JobRecord): void {
    this.#jobs.set(job.id, job);
    const list = this.#byAccount.get(job.accountId) ?? [];
    list.push(job);
    this.#byAccount.set(job.accountId, list);
  }

  #track(p: Promise<unknown>): void {
    this.#pending.add(p);
    void p.finally(() => this.#pending.delete(p));
  }

  #urlOptions() {
    return {
      fetch: this.options.fetchImage,
      timeoutMs: this.options.imageUrlTimeoutMs ?? 10_000,
      ...this.options.imageUrls,
    };
  }
}
