// The dev page's tour of the proxy. Plain DOM on purpose: it must work before any element exists.
// The page holds no key: it asks the proxy at /mediakit for a session (the dev stack's demo
// authorize knows this browser by a first-party cookie) and calls the API through it.
const base = '/mediakit';
let token = '';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const log = (line: string) => ($('log').textContent = `${line}\n${$('log').textContent ?? ''}`);
const auth = () => ({ authorization: `Bearer ${token}` });

function showBudget(remaining: number | string | null): void {
  if (remaining !== null)
    $('balance').textContent =
      `This browser may spend ${new Intl.NumberFormat().format(Number(remaining))} more credits today`;
}

$('account').addEventListener('click', async () => {
  const r = await fetch(`${base}/session`, { method: 'POST' });
  const body = await r.json();
  if (!r.ok) return log(`session: ${r.status} ${body.error.message}`);
  token = body.data.token;
  log(`session until ${new Date(body.data.expires_at).toLocaleTimeString()}: ${body.data.capabilities.join(', ')}`);
  (document.querySelector('.tools') as HTMLElement).hidden = false;
  showBudget(body.data.budget.remaining);
});

$('bg-run').addEventListener('click', async () => {
  const file = $<HTMLInputElement>('bg-file').files?.[0];
  if (!file) return log('choose an image first');
  const form = new FormData();
  form.set('image_file', file);
  const r = await fetch(`${base}/api/v1`, {
    method: 'POST',
    headers: { ...auth(), 'idempotency-key': crypto.randomUUID() },
    body: form,
  });
  if (!r.ok) return log(`background removal: ${r.status} ${(await r.json()).error.message}`);
  const img = $<HTMLImageElement>('bg-out');
  img.src = URL.createObjectURL(await r.blob());
  img.hidden = false;
  log(`background removal: charged ${r.headers.get('x-credits-charged')}`);
  showBudget(r.headers.get('x-credits-remaining'));
});

$('gen-run').addEventListener('click', async () => {
  const prompt = $<HTMLInputElement>('prompt').value;
  const r = await fetch(`${base}/api/v1/3d/jobs`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ mode: 'text', prompt, quality: 'fast' }),
  });
  const created = await r.json();
  if (!r.ok) return log(`3D: ${r.status} ${created.error.message}`);
  log(`3D job created, seed ${created.data.seed}`);
  showBudget(r.headers.get('x-credits-remaining'));
  const poll = r.headers.get('location')!;
  for (;;) {
    await new Promise((res) => setTimeout(res, 1000));
    const { data } = await (await fetch(poll, { headers: auth() })).json();
    $('gen-status').textContent = `${data.status} ${data.progress}%`;
    if (data.status === 'succeeded') {
      const video = $<HTMLVideoElement>('gen-out');
      video.src = data.output.turntable_url;
      video.hidden = false;
      log(`3D: ${data.output.stats.triangles} triangles, ${data.output.stats.bytes} bytes`);
      return;
    }
    if (data.status === 'failed') return log(`3D failed: ${data.error.message}`);
  }
});
