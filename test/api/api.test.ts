import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ApiError,
  COSTS,
  ERROR_CODES,
  KEY_PREFIXES,
  LIMITS,
  ROUTES,
  headshotCharge,
  matchRoute,
  sniffImage,
  sniffVideo,
} from '../../src/api/index.js';

describe('costs', () => {
  it('headshots: 10 for four, 2.5 per variant rounded down, never more than pro rata', () => {
    assert.deepEqual([0, 1, 2, 3, 4].map(headshotCharge), [0, 2, 5, 7, 10]);
    for (let n = 0; n <= 4; n++) assert.ok(headshotCharge(n) <= (n * COSTS.headshotFullBatch) / 4);
    assert.ok(4 * headshotCharge(1) <= COSTS.headshotFullBatch, 'four single retries never cost more than a batch');
  });
});

describe('limits', () => {
  it('match the spec table', () => {
    assert.equal(LIMITS.video.maxBytes, 500 * 1024 * 1024);
    assert.equal(LIMITS.video.maxDurationSeconds, 180);
    assert.equal(LIMITS.image.maxBytes, 12 * 1024 * 1024);
    assert.deepEqual([LIMITS.model.minImages, LIMITS.model.maxImages], [1, 6]);
    assert.deepEqual([LIMITS.model.minPromptChars, LIMITS.model.maxPromptChars], [3, 300]);
    assert.equal(LIMITS.imageTools.previewMaxPixels, 250_000);
    assert.deepEqual(Object.values(KEY_PREFIXES), ['v3_live_', 'hs_live_', 'g3_live_', 'ut_live_']);
  });
});

describe('routes', () => {
  it('match exact segments only', () => {
    assert.equal(matchRoute('/api/v1/3d/jobs/job_abc')[0]?.route.name, 'getModelJob');
    assert.equal(matchRoute('/api/v1/3d/jobs/job_abc')[0]?.jobId, 'job_abc');
    assert.equal(matchRoute('/api/v1/3d/jobs/../account').length, 0);
    assert.equal(matchRoute('/api/v1/3d/jobs/a%2Fb').length, 0);
    assert.equal(matchRoute('/api/v1/3d/jobs//').length, 0);
    assert.equal(matchRoute('/api/v1/').length, 0);
    assert.equal(matchRoute('/api/v1')[0]?.route.name, 'imageTool');
  });
  it('every charged route has a capability', () => {
    for (const r of ROUTES.filter((r) => r.charged)) assert.ok(r.capability && r.capability !== 'any', r.name);
  });
});

describe('sniffing', () => {
  it('images by magic bytes', () => {
    assert.equal(sniffImage(new Uint8Array([0xff, 0xd8, 0xff, 0xe0])), 'jpeg');
    assert.equal(sniffImage(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'png');
    assert.equal(sniffImage(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 ')), 'webp');
    assert.equal(sniffImage(new TextEncoder().encode('GIF89a')), undefined);
  });
  it('ISO-BMFF videos by the ftyp box', () => {
    assert.equal(sniffVideo(new TextEncoder().encode('\0\0\0\x20ftypisom\0\0\0\0')), 'mp4');
    assert.equal(sniffVideo(new TextEncoder().encode('\0\0\0\x14ftypqt  \0\0\0\0')), 'mov');
    assert.equal(sniffVideo(new TextEncoder().encode('\x1aE\xdf\xa3 webm data')), undefined);
  });
});

describe('ApiError', () => {
  it('reads the envelope and Retry-After from a response', async () => {
    const r = new Response(JSON.stringify({ error: { code: 'rate_limited', message: 'slow down' } }), {
      status: 429,
      headers: { 'retry-after': '7' },
    });
    const e = await ApiError.fromResponse(r);
    assert.deepEqual([e.status, e.code, e.message, e.retryAfter], [429, 'rate_limited', 'slow down', 7]);
  });
  it('survives a body that is not an envelope', async () => {
    const e = await ApiError.fromResponse(new Response('<html>bad gateway</html>', { status: 502 }));
    assert.deepEqual([e.status, e.code], [502, 'http_502']);
  });
  it('has a status for every code', () => {
    for (const [code, status] of Object.entries(ERROR_CODES))
      assert.equal(ApiError.of(code as keyof typeof ERROR_CODES, 'x').status, status);
  });
});
