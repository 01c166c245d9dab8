/**
 * The sandbox's optional peer dependencies. A site that only embeds the elements and runs the
 * proxy never installs them, so they are optional peers of the package; the sandbox (and the dev
 * stack and `mediakit-sandbox`, which run it) checks for them before loading any module that
 * imports them, and names what to install instead of Node's "Cannot find package 'sharp'".
 */
export const SANDBOX_PEERS = ['sharp', '@gltf-transform/core', 'mediabunny'] as const;

/** Why each is needed, for the message. */
const WHY: Record<string, string> = {
  sharp: 'images: headshots, background removal, relief textures',
  '@gltf-transform/core': 'the GLB models of 3D jobs',
  mediabunny: 'reading uploaded videos',
  '@ffmpeg-installer/ffmpeg': 'the turntable MP4 of 3D jobs (or a system ffmpeg on PATH)',
};

export const INSTALL_HINT = 'npm install -D sharp @gltf-transform/core mediabunny @ffmpeg-installer/ffmpeg';

function notFound(err: unknown, name: string): boolean {
  const e = err as { code?: string; message?: string };
  return (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') && String(e.message).includes(name);
}

/** Resolves when every peer imports; otherwise throws one error naming all the missing ones. */
export async function requirePeers(use: string, names: readonly string[] = SANDBOX_PEERS): Promise<void> {
  const missing: string[] = [];
  for (const name of names) {
    try {
      await import(name);
    } catch (err) {
      if (!notFound(err, name)) throw err;
      missing.push(name);
    }
  }
  if (missing.length === 0) return;
  throw new Error(
    `${use} needs ${missing.map((m) => `${m} (${WHY[m] ?? 'required'})`).join(', ')}: optional peer dependencies of ` +
      `@mediakit/elements that are not installed. Install what the sandbox uses with:\n  ${INSTALL_HINT}\n` +
      `(the README's "What each use installs" table lists what each entry point needs).`,
  );
}
