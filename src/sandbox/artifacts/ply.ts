/**
 * Standard 3DGS PLY, the layout of graphdeco-inria/gaussian-splatting's save_ply
 * (shared/notes/FORMATS.md): binary little endian float32 records of x y z, nx ny nz, f_dc_0..2,
 * f_rest_* (channel-major), opacity (logit), scale_0..2 (ln sigma), rot_0..3 (w x y z).
 * The header uses \n line endings: one popular reader zeroes positions on CRLF.
 */
export const SH_C0 = 0.28209479177387814;

export interface Splat {
  position: [number, number, number];
  /** Linear RGB 0..1. */
  color: [number, number, number];
  /** 0..1, stored as a logit. */
  opacity: number;
  /** Standard deviations per axis, stored as ln. */
  scale: [number, number, number];
  /** Quaternion w x y z (need not be normalised). */
  rotation: [number, number, number, number];
}

export function encodePly(splats: readonly Splat[], shDegree: 0 | 1 | 2 | 3 = 0): Uint8Array {
  const restPerChannel = (shDegree + 1) ** 2 - 1;
  const props = ['x', 'y', 'z', 'nx', 'ny', 'nz', 'f_dc_0', 'f_dc_1', 'f_dc_2'];
  for (let i = 0; i < restPerChannel * 3; i++) props.push(`f_rest_${i}`);
  props.push('opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3');
  const header =
    [
      'ply',
      'format binary_little_endian 1.0',
      `element vertex ${splats.length}`,
      ...props.map((p) => `property float ${p}`),
      'end_header',
    ].join('\n') + '\n';
  const head = new TextEncoder().encode(header);
  const stride = props.length;
  const out = new Uint8Array(head.byteLength + splats.length * stride * 4);
  out.set(head, 0);
  const view = new DataView(out.buffer, head.byteLength);
  let o = 0;
  const put = (v: number) => {
    view.setFloat32(o, v, true);
    o += 4;
  };
  for (const s of splats) {
    put(s.position[0]);
    put(s.position[1]);
    put(s.position[2]);
    put(0);
    put(0);
    put(0);
    for (const c of s.color) put((c - 0.5) / SH_C0);
    // View-dependent terms: small, so every reader that ignores them still sees the right colour.
    for (let i = 0; i < restPerChannel * 3; i++) put(0);
    const p = Math.min(0.999, Math.max(0.001, s.opacity));
    put(Math.log(p / (1 - p)));
    for (const sc of s.scale) put(Math.log(sc));
    for (const r of s.rotation) put(r);
  }
  return out;
}
