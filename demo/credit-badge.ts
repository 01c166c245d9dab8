import '../src/components/credit-badge/define.js';
import { MediaClient } from '../src/client/media-client.js';
import { sampleProduct, sampleSelfie } from './samples.js';

const log = document.querySelector('#log')!;
const write = (line: string) => {
  log.textContent = `${new Date().toLocaleTimeString()}  ${line}\n${log.textContent}`.slice(0, 4000);
};
document
  .querySelector<HTMLElementTagNameMap['credit-badge']>('#long')!
  .addEventListener('mk-credits-changed', (e) => write(`mk-credits-changed ${JSON.stringify(e.detail)}`));
const lowBadge = document.querySelector<HTMLElementTagNameMap['credit-badge']>('#low-badge')!;
const low = document.querySelector<HTMLInputElement>('#low')!;
low.addEventListener('input', () => (lowBadge.low = Number(low.value) || 0));
// Start the threshold just below the current number: one spend turns it low.
void customElements.whenDefined('credit-badge').then(async () => {
  const { remaining } = await MediaClient.for('/mediakit').budget();
  low.value = String(remaining);
  lowBadge.low = remaining;
});
const client = MediaClient.for('/mediakit');
const out = document.querySelector('#spent')!;
document.querySelector('#spend')!.addEventListener('click', async () => {
  const r = await client.imageTool({ image: await sampleProduct(), size: 'preview' });
  out.textContent = `charged ${r.credits_charged}, ${r.credits_remaining} left`;
});
document.querySelector('#headshots')!.addEventListener('click', async () => {
  const r = await client.headshots({ image: await sampleSelfie() });
  out.textContent = `charged ${r.credits_charged}, ${r.credits_remaining} left`;
});
