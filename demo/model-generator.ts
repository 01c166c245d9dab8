import '../src/components/model-generator/define.js';
import { sampleViews } from './model-generator.samples.js';
import { showSubmitted } from './saved-value.js';

const el = document.querySelector('model-generator')!;
const log = document.querySelector('#log')!;
const write = (line: string) => {
  log.textContent = `${new Date().toLocaleTimeString()}  ${line}\n${log.textContent}`.slice(0, 4000);
};
el.addEventListener('mk-file-selected', (e) =>
  write(`mk-file-selected ${JSON.stringify({ name: e.detail.file.name, source: e.detail.source })}`),
);
for (const type of ['mk-job-created', 'mk-job-progressed', 'mk-succeeded', 'mk-failed'] as const) {
  el.addEventListener(type, (e) =>
    write(
      `${type} ${JSON.stringify({ status: e.detail.status, progress: e.detail.progress, whileAway: e.detail.whileAway, refunded: e.detail.refunded, ...(e.detail.model ? { model: e.detail.model } : {}) })}`,
    ),
  );
}
document.querySelector('#sample')!.addEventListener('click', async () => {
  el.mode = 'photos';
  el.images = await sampleViews();
});
document.querySelector('#prompt')!.addEventListener('click', () => {
  el.mode = 'prompt';
  el.prompt = 'a blue ceramic teapot with a curved spout';
});
document
  .querySelector<HTMLInputElement>('#lang')!
  .addEventListener(
    'change',
    (e) => (document.documentElement.lang = (e.target as HTMLInputElement).checked ? 'de' : 'en'),
  );
document.querySelector('#form')!.addEventListener('submit', (e) => {
  e.preventDefault();
  showSubmitted(e.target as HTMLFormElement, 'model', document.querySelector('#submitted')!);
});
