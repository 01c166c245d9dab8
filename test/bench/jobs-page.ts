// The page the job-engine benchmark (jobs.ts) drives in Chromium: the real client and poller,
// and a naive poller (a fixed-interval loop per tab, what an integration without an engine does)
// as the baseline.
import { JobPoller, MediaClient, isTerminal } from '../../src/index.js';

const client = MediaClient.for('/mediakit');
const poller = JobPoller.for(client);
const video = async () =>
  new File([await (await fetch('/__bench/video.mp4')).blob()], 'walk.mp4', { type: 'video/mp4' });
const photo = async () => {
  const c = new OffscreenCanvas(320, 400);
  const g = c.getContext('2d')!;
  g.fillStyle = '#dfe3e8';
  g.fillRect(0, 0, 320, 400);
  g.fillStyle = '#c0561b';
  g.fillRect(100, 120, 120, 200);
  return c.convertToBlob({ type: 'image/png' });
};
const MODEL = { mode: 'text', prompt: 'a bench teapot', quality: 'standard' } as const;

const mk = {
  async create(kind: 'video' | 'model'): Promise<string> {
    const r = kind === 'video' ? await poller.create('video', await video()) : await poller.create('model', MODEL);
    return r.id;
  },
  watch(id: string): Promise<string> {
    return new Promise((resolve) => {
      const stop = poller.watch(id, (r) => {
        if (isTerminal(r.status)) {
          queueMicrotask(stop);
          resolve(r.status);
        }
      });
    });
  },
  /** Every tab: picks up this browser's unfinished jobs and waits for them. */
  async resumeAll(): Promise<string[]> {
    const records = await poller.resume();
    return Promise.all(records.filter((r) => !isTerminal(r.status)).map((r) => mk.watch(r.id)));
  },
  async createNaive(kind: 'video' | 'model'): Promise<string> {
    return kind === 'video'
      ? (await client.createVideoJob(await video())).data.job_id
      : (await client.createModelJob(MODEL)).data.job_id;
  },
  async pollNaive(kind: 'video' | 'model', handle: string, intervalMs: number): Promise<string> {
    for (;;) {
      const job = kind === 'video' ? await client.getVideoJob(handle) : await client.getModelJob(handle);
      if (job.status !== 'queued' && job.status !== 'processing') return job.status;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  },
  async headshots(): Promise<number> {
    return (await client.headshots({ image: await photo() })).credits_charged;
  },
  async imageTool(): Promise<number> {
    return (await client.imageTool({ image: await photo() })).credits_charged;
  },
};
Object.assign(window, { mk });
