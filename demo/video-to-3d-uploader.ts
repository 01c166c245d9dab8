import '../src/components/video-to-3d-uploader/define.js';
import { showSubmitted } from './saved-value.js';

const el = document.querySelector('video-to-3d-uploader')!;
const log = document.querySelector('#log')!;
const write = (line: string) => {
  log.textContent = `${new Date().toLocaleTimeString()}  ${line}\n${log.textContent}`.slice(0, 4000);
};
for (const type of ['mk-file-selected', 'mk-job-created', 'mk-succeeded', 'mk-failed'] as const) {
  el.addEventListener(type, (e) =>
    write(
      `${type} ${JSON.stringify(type === 'mk-file-selected' ? { name: (e.detail as { file: File }).file.name } : { status: (e.detail as { status: string }).status, whileAway: (e.detail as { whileAway?: boolean }).whileAway, refunded: (e.detail as { refunded?: boolean }).refunded })}`,
    ),
  );
}
let quarter = -1;
el.addEventListener('mk-upload-progressed', (e) => {
  const q = Math.floor((e.detail.loaded / Math.max(1, e.detail.total)) * 4);
  if (q !== quarter) write(`mk-upload-progressed ${(quarter = q) * 25} %`);
});
document.querySelector('#sample')!.addEventListener('click', async () => {
  const blob = await (await fetch('/media/walkthrough.mp4')).blob();
  el.selectFile(new File([blob], 'walkthrough.mp4', { type: 'video/mp4' }));
});
document
  .querySelector<HTMLInputElement>('#lang')!
  .addEventListener(
    'change',
    (e) => (document.documentElement.lang = (e.target as HTMLInputElement).checked ? 'de' : 'en'),
  );
document.querySelector('#form')!.addEventListener('submit', (e) => {
  e.preventDefault();
  showSubmitted(e.target as HTMLFormElement, 'scene_job', document.querySelector('#submitted')!);
});
