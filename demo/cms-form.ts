import '../src/define.js';

const KEY = 'mediakit-demo-cms-form';
const form = document.querySelector<HTMLFormElement>('#form')!;
const out = document.querySelector('#submitted')!;
const fields = ['cutout', 'portrait', 'model', 'scene'] as const;
const element = (name: string) => form.querySelector<HTMLElement & { value: string }>(`[name="${name}"]`)!;

// Re-open: what the "CMS" stored goes back into each field (shown with no API request).
const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, string>;
for (const name of fields) if (saved[name]) element(name).value = saved[name];
if (saved['title']) form.querySelector<HTMLInputElement>('[name="title"]')!.value = saved['title'];

form.addEventListener('submit', (e) => {
  e.preventDefault();
  const data = new FormData(form);
  const record: Record<string, string> = {};
  for (const [k, v] of data) if (typeof v === 'string') record[k] = v;
  localStorage.setItem(KEY, JSON.stringify(record));
  out.textContent = `Saved ${Object.keys(record).join(', ')}.`;
});
document.querySelector('#forget')!.addEventListener('click', () => {
  localStorage.removeItem(KEY);
  location.reload();
});
document.querySelector<HTMLInputElement>('#lang')!.addEventListener('change', (e) => {
  document.documentElement.lang = (e.target as HTMLInputElement).checked ? 'de' : 'en';
});
document.querySelector<HTMLInputElement>('#dark')!.addEventListener('change', (e) => {
  const dark = (e.target as HTMLInputElement).checked;
  for (const el of document.querySelectorAll('bg-tool, headshot-studio, model-generator, video-to-3d-uploader'))
    el.setAttribute('theme', dark ? 'dark' : 'light');
  document.body.classList.toggle('dark', dark);
});
