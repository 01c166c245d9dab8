/**
 * The synchronous endpoints: headshots (spec "POST /api/v1/headshot") and image tools ("POST /api/v1").
 * Credits are held while the work runs, so parallel calls can never overdraw, and charged after it
 * by what succeeded.
 */
import { COSTS, headshotCharge, toBase64, type HeadshotVariant } from '../api/index.js';
import type { AccountBook, ResolvedKey } from './accounts.js';
import type { SandboxClock } from './clock.js';
import { chargeHeaders, fail, json } from './http.js';
import { checkImage, decodable, decodeBase64, fetchImageUrl, type Body } from './inputs.js';
import { NoSubjectError, type SandboxPlatform } from './platform.js';
import { headshotParams, imageToolParams, oneImageSource, type ImageSource } from './params.js';

interface SyncOptions {
  fetchImage?: typeof fetch;
  imageUrlTimeoutMs?: number;
  imageUrls?: { allowLoopback?: boolean; maxRedirects?: number };
}

/** Waits `ms` of real time (the `slow` fault): the answer is late, as a busy provider's would be. */
const held = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : undefined);

export class SyncRoutes {
  constructor(
    private readonly accounts: AccountBook,
    private readonly clock: SandboxClock,
    private readonly options: SyncOptions,
    private readonly platform: SandboxPlatform,
  ) {}

  async headshots(body: Body, auth: ResolvedKey): Promise<Response> {
    const params = headshotParams(body);
    const image = await this.#loadImage(oneImageSource(body));
    const account = auth.account;
    const price = headshotCharge(params.variants.length);
    return this.#withHold(account, price, async () => {
      await held(this.accounts.takeSlowFault(account));
      if (this.accounts.takeFault(account, 'create_error') || this.accounts.takeFault(account, 'all_variants_fail'))
        allFailed();
      const failing = this.accounts.takeVariantFault(account);
      // The subject is cut out once per batch; every slot starts from it.
      const cut = await this.platform.removeBackground(image);
      const variants: HeadshotVariant[] = await Promise.all(
        params.variants.map(async (slot): Promise<HeadshotVariant> => {
          if (failing.includes(slot))
            return {
              variant: slot,
              status: 'failed',
              error:
                'The provider could not render this variant. Retry just this slot with variants: [' +
                slot +
                ']; it was not charged.',
            };
          const out = await this.platform.renderHeadshot(cut, params.style, slot);
          return {
            variant: slot,
            status: 'succeeded',
            image_base64: toBase64(out.png),
            content_type: 'image/png',
            width: out.width,
            height: out.height,
          };
        }),
      );
      const succeeded = variants.filter((v) => v.status === 'succeeded').length;
      if (succeeded === 0) allFailed();
      const charged = headshotCharge(succeeded);
      this.accounts.charge(account, charged, this.clock.now(), 'headshots');
      return json(
        { data: { style: params.style, variants }, credits_charged: charged, credits_remaining: account.balance },
        200,
        chargeHeaders(charged, account.balance),
      );
    });
  }

  async imageTool(body: Body, auth: ResolvedKey, accept: string): Promise<Response> {
    const params = imageToolParams(body);
    const image = await this.#loadImage(oneImageSource(body));
    const account = auth.account;
    return this.#withHold(account, COSTS.imageTool, async () => {
      await held(this.accounts.takeSlowFault(account));
      if (this.accounts.takeFault(account, 'create_error'))
        fail('provider_error', 'The provider failed to process the image. Nothing was charged; try again.');
      let out;
      try {
        out = await this.platform.runImageTool(image, params);
      } catch (err) {
        if (err instanceof NoSubjectError)
          fail(
            'invalid_request',
            'No foreground subject was found: the image looks like plain background. Send a photo with a clear subject.',
          );
        throw err;
      }
      this.accounts.charge(account, COSTS.imageTool, this.clock.now(), 'imageTool');
      const headers = chargeHeaders(COSTS.imageTool, account.balance);
      if (/application\/json/i.test(accept)) {
        return json(
          {
            data: { image_base64: toBase64(out.bytes), width: out.width, height: out.height },
            credits_charged: COSTS.imageTool,
            credits_remaining: account.balance,
          },
          200,
          headers,
        );
      }
      return new Response(out.bytes as Uint8Array<ArrayBuffer>, {
        status: 200,
        headers: {
          'content-type': out.contentType,
          'content-length': String(out.bytes.byteLength),
          'cache-control': 'no-store',
          ...headers,
        },
      });
    });
  }

  /** Holds `price` credits while `work` runs: a 402 before any work when they are not there. */
  async #withHold<T>(account: ResolvedKey['account'], price: number, work: () => Promise<T>): Promise<T> {
    this.accounts.requireAvailable(account, price);
    account.held += price;
    try {
      return await work();
    } finally {
      account.held -= price;
    }
  }

  async #loadImage(source: ImageSource): Promise<Uint8Array> {
    let bytes: Uint8Array;
    let field: string;
    if (source.kind === 'file') {
      field = 'image_file';
      bytes = new Uint8Array(await source.file.arrayBuffer());
    } else if (source.kind === 'base64') {
      field = 'image_base64';
      bytes = decodeBase64(source.value, field);
    } else {
      field = 'image_url';
      bytes = await fetchImageUrl(
        source.value,
        field,
        {
          fetch: this.options.fetchImage,
          timeoutMs: this.options.imageUrlTimeoutMs ?? 10_000,
          ...this.options.imageUrls,
        },
        this.platform,
      );
    }
    checkImage(bytes, field);
    await decodable(bytes, field, this.platform);
    return bytes;
  }
}

function allFailed(): never {
  fail(
    'provider_error',
    'Every headshot variant failed at the provider. Nothing was charged; try again, ideally with a front-facing, evenly lit selfie.',
  );
}
