import '../src/components/headshot-studio/define.js';
import '../src/components/credit-badge/define.js';
import { sampleSelfie } from './samples.js';
import { showSubmitted } from './saved-value.js';

const el = document.querySelector('headshot-studio')!;
const log = document.querySelector('#log')!;
const write = (line: string) => {
  log.textContent = `${new Date().toLocaleTimeString()}  ${line}\n${log.textContent}`.slice(0, 4000);
};
el.addEventListener('mk-file-selected', (e) =>
  write(`mk-file-selected ${JSON.stringify({ name: e.detail.file.name, source: e.detail.source })}`),
);
el.addEventListener('mk-succeeded', (e) =>
  write(
    `mk-succeeded ${JSON.stringify({ style: e.detail.style, slots: e.detail.slots, statuses: e.detail.headshots?.map((h) => h.status), charged: e.detail.charged, remaining: e.detail.remaining })}`,
  ),
);
el.addEventListener('mk-headshot-chosen', (e) =>
  write(
    `mk-headshot-chosen ${JSON.stringify({ slot: e.detail.slot, file: e.detail.file.name, bytes: e.detail.file.size })}`,
  ),
);

const sandbox = async (kind: string, extra: Record<string, unknown> = {}) => {
  const { account_id } = (await (await fetch('/sandbox/__dev/account')).json()) as { account_id: string };
  await fetch('/sandbox/__sandbox/faults', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account_id, kind, ...extra }),
  });
  write(`sandbox fault armed: ${kind} ${JSON.stringify(extra)}`);
};
document.querySelector('#sample')!.addEventListener('click', async () => el.selectFile(await sampleSelfie()));
document.querySelector('#fail-one')!.addEventListener('click', () => void sandbox('variant_fail', { variants: [3] }));
document.querySelector('#fail-all')!.addEventListener('click', () => void sandbox('all_variants_fail'));
document.querySelector('#busy')!.addEventListener('click', () => void sandbox('rate_limit'));
document
  .querySelector<HTMLInputElement>('#lang')!
  .addEventListener(
    'change',
    (e) => (document.documentElement.lang = (e.target as HTMLInputElement).checked ? 'de' : 'en'),
  );
document.querySelector('#form')!.addEventListener('submit', (e) => {
  e.preventDefault();
  showSubmitted(e.target as HTMLFormElement, 'portrait', document.querySelector('#submitted')!);
});
