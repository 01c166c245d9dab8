/**
 * The limits table of the spec ("Limits"), the one place every layer reads them from:
 * client validation before a byte is sent, proxy budgets, sandbox enforcement.
 */
export const LIMITS = {
  video: {
    maxBytes: 500 * 1024 * 1024,
    maxDurationSeconds: 180,
    /** "at most 1080p": the shorter side of the frame, so portrait 1080x1920 passes and 1440p does not. */
    maxShortSidePixels: 1080,
    /** Longer side of 1080p. A 1080x2400 strip is not 1080p either. */
    maxLongSidePixels: 1920,
    containers: ['mp4', 'mov'] as const,
    mimeTypes: ['video/mp4', 'video/quicktime'] as const,
  },
  image: {
    maxBytes: 12 * 1024 * 1024,
    formats: ['jpeg', 'png', 'webp'] as const,
    mimeTypes: ['image/jpeg', 'image/png', 'image/webp'] as const,
  },
  model: {
    /** Not in the spec ("integer"): seeds are unsigned 32-bit, 0 to 4294967295. */
    maxSeed: 0xffffffff,
    minImages: 1,
    maxImages: 6,
    minPromptChars: 3,
    maxPromptChars: 300,
    qualities: ['fast', 'standard', 'high'] as const,
    /** quality -> texture size (px) and sampling steps, the spec's quality table. */
    qualitySettings: {
      fast: { textureSize: 512, steps: 12 },
      standard: { textureSize: 1024, steps: 12 },
      high: { textureSize: 2048, steps: 25 },
    },
    /** Advice, not a rule: a single photo works best from 512 px. */
    recommendedMinImagePixels: 512,
  },
  headshot: {
    slots: [0, 1, 2, 3] as const,
    styles: ['corporate', 'business-casual', 'bewerbung', 'creative'] as const,
    defaultStyle: 'corporate' as const,
  },
  imageTools: {
    previewMaxPixels: 250_000,
    /**
     * Not in the spec (../shared/spec/media-api.md, POST /api/v1: "size | string | auto | auto,
     * preview (at most 0.25 megapixel), full"; its Limits table has only "preview size | image
     * tools | at most 0.25 MP"): auto has no stated limit. Ours, what the sandbox does and <bg-tool>
     * says: the full resolution up to 10 megapixels, scaled down beyond.
     */
    autoMaxPixels: 10_000_000,
    sizes: ['auto', 'preview', 'full'] as const,
    formats: ['png', 'jpg'] as const,
    /** bg_color: "a hex color such as #<hex>"; we take 3 or 6 digits, the # optional, or "none". */
    bgColorPattern: /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i,
  },
  /** "provider links inside expire after about 60 minutes". */
  archiveLinkLifetimeMs: 60 * 60 * 1000,
} as const;

/** Multipart framing and the other fields around the files of one request. */
export const REQUEST_OVERHEAD_BYTES = 64 * 1024;

/**
 * The largest request body each charged endpoint reads, derived from the limits above: the video
 * plus framing; JSON carries images as base64 (4 characters per 3 bytes), six of them for 3D jobs.
 * The sandbox refuses larger bodies and the proxy refuses them before forwarding a byte.
 */
export function maxRequestBytes(route: 'createVideoJob' | 'createModelJob' | 'headshots' | 'imageTool'): number {
  if (route === 'createVideoJob') return LIMITS.video.maxBytes + REQUEST_OVERHEAD_BYTES;
  const perImage = Math.ceil((LIMITS.image.maxBytes * 4) / 3) + REQUEST_OVERHEAD_BYTES;
  return route === 'createModelJob' ? LIMITS.model.maxImages * perImage : perImage;
}

export type ImageFormat = (typeof LIMITS.image.formats)[number];
