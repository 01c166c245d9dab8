import '../src/components/bg-tool/define.js';
import '../src/components/credit-badge/define.js';
import { sampleProduct } from './samples.js';
import { showSubmitted } from './saved-value.js';

const el = document.querySelector('bg-tool')!;
const form = document.querySelector<HTMLFormElement>('#form')!;
const log = document.querySelector('#log')!;
const write = (line: string) => {
  log.textContent = `${new Date().toLocaleTimeString()}  ${line}\n${log.textContent}`.slice(0, 4000);
};
el.addEventListener('mk-file-selected', (e) =>
  write(`mk-file-selected ${JSON.stringify({ name: e.detail.file.name, source: e.detail.source })}`),
);
el.addEventListener('mk-succeeded', (e) =>
  write(
    `mk-succeeded ${JSON.stringify({ type: e.detail.blob?.type, bytes: e.detail.blob?.size, width: e.detail.width, height: e.detail.height, format: e.detail.format, charged: e.detail.charged, remaining: e.detail.remaining })}`,
  ),
);

const sandbox = async (kind: string) => {
  const { account_id } = (await (await fetch('/sandbox/__dev/account')).json()) as { account_id: string };
  await fetch('/sandbox/__sandbox/faults', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account_id, kind }),
  });
  write(`sandbox fault armed: ${kind}`);
};
document.querySelector('#sample')!.addEventListener('click', async () => el.selectFile(await sampleProduct()));
document.querySelector('#fail')!.addEventListener('click', () => void sandbox('create_error'));
document.querySelector('#busy')!.addEventListener('click', () => void sandbox('rate_limit'));
document
  .querySelector<HTMLInputElement>('#lang')!
  .addEventListener(
    'change',
    (e) => (document.documentElement.lang = (e.target as HTMLInputElement).checked ? 'de' : 'en'),
  );
form.addEventListener('submit', (e) => {
  e.preventDefault();
  showSubmitted(e.target as HTMLFormElement, 'cutout', document.querySelector('#submitted')!);
});
form.addEventListener('reset', () => (document.querySelector('#submitted')!.textContent = ''));
