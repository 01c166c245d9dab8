/**
 * The page of `npm run bench -- convert` (photos): the kit's photo conversion (src/client/fit-photo.ts)
 * timed where it runs, in Chromium, bundled by esbuild with the HEIC decoder.
 */
import { fitPhoto, type PhotoLimits } from '../../src/client/fit-photo.js';

export interface ConvertPhotoBench {
  /** Times `runs` conversions of the file at `url` under `limits`: each run's ms, and what came out. */
  fit(
    url: string,
    limits: PhotoLimits,
    runs: number,
  ): Promise<{ ms: number[]; width: number; height: number; bytes: number; type: string }>;
}

const bench: ConvertPhotoBench = {
  async fit(url, limits, runs) {
    const blob = await (await fetch(url)).blob();
    const file = new File([blob], url.split('/').pop()!);
    const ms: number[] = [];
    let out: Awaited<ReturnType<typeof fitPhoto>> | undefined;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      out = await fitPhoto(file, 'image_file', limits);
      ms.push(performance.now() - t);
    }
    return { ms, width: out!.checked.width, height: out!.checked.height, bytes: out!.file.size, type: out!.file.type };
  },
};
(globalThis as { bench?: ConvertPhotoBench }).bench = bench;
