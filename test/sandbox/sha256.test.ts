import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { hmacSha256 } from '../../src/sandbox/links.js';
import { sha256 } from '../../src/sandbox/sha256.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('the browser platform SHA-256 (plain ECMAScript)', () => {
  it('matches node:crypto for every length around the block and padding edges, fed in odd pieces', () => {
    for (const n of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 1000, 65_537]) {
      const data = new Uint8Array(n).map((_, i) => (i * 31 + 7) & 255);
      const h = sha256();
      for (let i = 0; i < n; i += 37) h.update(data.subarray(i, i + 37));
      assert.equal(hex(h.digest()), createHash('sha256').update(data).digest('hex'), `length ${n}`);
    }
  });

  it('HMAC over it matches node:crypto (links are signed with it in the browser)', () => {
    for (const keyLength of [0, 16, 64, 100]) {
      const key = new Uint8Array(keyLength).fill(9);
      const message = new TextEncoder().encode('downloadModel\njob_x\n123');
      const ref = createHmac('sha256', key).update(message).digest('hex');
      assert.equal(hex(hmacSha256(sha256, key, message)), ref, `key of ${keyLength} bytes`);
    }
  });
});
