// The dev page's sandbox tour. Plain DOM on purpose: it must work before any element exists.
const base = '/sandbox';
let keys: Record<string, string> = {};

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const log = (line: string) => ($('log').textContent = `${line}\n${$('log').textContent ?? ''}`);

async function refreshBalance(): Promise<void> {
  const r = await fetch(`${base}/api/v1/account`, { headers: { 'x-api-key': keys['video']! } });
  const body = await r.json();
  $('balance').textContent = `Balance: ${new Intl.NumberFormat().format(body.data.credits.balance)} credits`;
}

$('account').addEventListener('click', async () => {
  const r = await fetch(`${base}/__sandbox/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"credits":100}' });
  const body = await r.json();
  keys = body.keys;
  log(`account ${body.account_id} created`);
  (document.querySelector('.tools') as HTMLElement).hidden = false;
  await refreshBalance();
});

$('bg-run').addEventListener('click', async () => {
  const file = $<HTMLInputElement>('bg-file').files?.[0];
  if (!file) return log('choose an image first');
  const form = new FormData();
  form.set('image_file', file);
  const r = await fetch(`${base}/api/v1`, { method: 'POST', headers: { authorization: `Bearer ${keys['imageTools']}`, 'idempotency-key': crypto.randomUUID() }, body: form });
  if (!r.ok) return log(`background removal: ${r.status} ${(await r.json()).error.message}`);
  const img = $<HTMLImageElement>('bg-out');
  img.src = URL.createObjectURL(await r.blob());
  img.hidden = false;
  log(`background removal: charged ${r.headers.get('x-credits-charged')}`);
  await refreshBalance();
});

$('gen-run').addEventListener('click', async () => {
  const prompt = $<HTMLInputElement>('prompt').value;
  const r = await fetch(`${base}/api/v1/3d/jobs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keys['generate']}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ mode: 'text', prompt, quality: 'fast' }),
  });
  const created = await r.json();
  if (!r.ok) return log(`3D: ${r.status} ${created.error.message}`);
  log(`3D job created, seed ${created.data.seed}`);
  await refreshBalance();
  const poll = r.headers.get('location')!;
  for (;;) {
    await new Promise((res) => setTimeout(res, 1000));
    const { data } = await (await fetch(`${base}${poll}`, { headers: { 'x-api-key': keys['generate']! } })).json();
    $('gen-status').textContent = `${data.status} ${data.progress}%`;
    if (data.status === 'succeeded') {
      const video = $<HTMLVideoElement>('gen-out');
      video.src = `${base}${data.output.turntable_url}`;
      video.hidden = false;
      log(`3D: ${data.output.stats.triangles} triangles, ${data.output.stats.bytes} bytes`);
      return;
    }
    if (data.status === 'failed') return log(`3D failed: ${data.error.message}`);
  }
});
