/**
 * <splat-viewer>'s unzip is bounded: entries are judged by their declared size before anything is
 * inflated (a small zip may not expand past 64 times its size, nor 2 GB), and a zip inside a zip
 * is refused.
 */
import { expect } from '@open-wc/testing';
import { zipSync } from 'fflate';
import { prepareSplats, zipExpansionLimit } from '../../src/viewers/splat-viewer/splat-formats.js';
import { ballPly } from '../fixtures/splats.js';

function refusal(input: Uint8Array): string {
  try {
    prepareSplats(input);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
}

describe('splat zip bounds', () => {
  it('refuses a zip that declares more than its expansion limit, before inflating it', () => {
    const bomb = zipSync({ 'scene.ply': [new Uint8Array(96 * 1024 * 1024), { level: 9 }] });
    expect(bomb.byteLength).to.be.lessThan(1024 * 1024);
    expect(zipExpansionLimit(bomb.byteLength)).to.be.lessThan(96 * 1024 * 1024);
    expect(refusal(bomb)).to.match(/would expand to more than/);
  });

  it('refuses a zip inside a zip', () => {
    const inner = zipSync({ 'scene.ply': ballPly(200) });
    const outer = zipSync({ 'scene.ply': inner });
    expect(refusal(outer)).to.match(/holds another archive/);
  });

  it('still opens a plain scene zip', () => {
    const zip = zipSync({ 'scene.ply': ballPly(200) });
    expect(refusal(zip)).to.equal('accepted');
  });
});
