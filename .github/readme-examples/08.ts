// From README.md, extracted by scripts/readme.mjs: edit the README, not this file.
export {};
import { MediaClient, JobPoller, type CreditsChangedEvent } from '@mediakit/elements';

const client = MediaClient.for('/mediakit');        // the page's one client for this proxy
// or: new MediaClient({ endpoint: '/mediakit', session: () => myBackend.mintedToken() })

const cut = await client.imageTool({ image: file, size: 'preview' });   // { blob, credits_charged, credits_remaining }
const batch = await client.headshots({ image: selfie, variants: [2] });
client.credits.addEventListener('mk-credits-changed', (e) => badge.textContent = String((e as CreditsChangedEvent).detail.remaining));

const jobs = JobPoller.for(client);
await jobs.resume();                                 // on page load: finish what a reload interrupted
const job = await jobs.create('video', file, { onProgress: (p) => bar.value = p.loaded / p.total, signal });
const stop = jobs.watch(job.id, (record) => render(record));   // status, progress, output links
