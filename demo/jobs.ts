// The job engine driven by hand: create each kind of job, reload, watch it resume. Plain DOM on
// purpose, so it shows the engine itself; the elements build on exactly these calls.
import { JobPoller, MediaClient, isTerminal, type JobRecord, type ModelJob, type VideoJob } from '../src/index.js';

const client = MediaClient.for('/mediakit');
const poller = JobPoller.for(client);
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const number = new Intl.NumberFormat();
const rows = new Map<string, HTMLLIElement>();
let upload: AbortController | undefined;

client.credits.addEventListener(
  'mk-credits-changed',
  () => ($('credits').textContent = `Credits left today: ${number.format(client.credits.remaining ?? 0)}`),
);

function fail(err: unknown): void {
  $('error').textContent = err instanceof Error ? err.message : String(err);
}

/** Download links of a finished job, built as elements (the URLs come from the proxy, not markup). */
function links(record: JobRecord): HTMLAnchorElement[] {
  const o = (record.job as (VideoJob & ModelJob) | undefined)?.output;
  if (!o) return [];
  const pairs: [string | undefined, string][] =
    record.kind === 'video'
      ? [
          [o.ply_url, 'scene.ply'],
          [o.archive_url, 'scene.zip'],
        ]
      : [
          [o.model_url, 'model.glb'],
          [o.turntable_url, 'turntable.mp4'],
        ];
  return pairs
    .filter(([href]) => href)
    .map(([href, text]) => Object.assign(document.createElement('a'), { href: href!, textContent: text }));
}

function render(record: JobRecord): void {
  let li = rows.get(record.id);
  if (!li) {
    li = document.createElement('li');
    rows.set(record.id, li);
    $('jobs').prepend(li);
  }
  const label =
    record.kind === 'video'
      ? `Video ${record.summary['name'] ?? ''}`
      : `3D ${record.summary['prompt'] ?? `${record.summary['images']} photo(s)`}`;
  const before = li.dataset['status'];
  li.dataset['status'] = record.status;
  const progress = Object.assign(document.createElement('progress'), { max: 100, value: record.progress });
  const forget = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Forget' });
  const note = Object.assign(document.createElement('span'), {
    className: 'note',
    textContent: record.error ? (record.error.message ?? record.error.code) : '',
  });
  li.replaceChildren(
    Object.assign(document.createElement('strong'), { textContent: label }),
    ' ',
    progress,
    ` ${record.status} ${record.progress}% `,
    ...links(record).flatMap((a) => [a, ' ']),
    note,
    ' ',
    forget,
  );
  forget.onclick = async () => {
    await poller.forget(record.id);
    li!.remove();
    rows.delete(record.id);
  };
  // Stages, not every poll, for screen readers.
  if (before !== record.status) $('announce').textContent = `${label}: ${record.status}`;
}

async function start(job: Promise<JobRecord>): Promise<void> {
  $('error').textContent = '';
  try {
    const record = await job;
    render(record);
    poller.watch(record.id, render);
  } catch (err) {
    fail(err);
  }
}

$('video-go').addEventListener('click', () => {
  const file = $<HTMLInputElement>('video').files?.[0];
  if (!file) return fail('Choose a video first.');
  upload = new AbortController();
  $<HTMLButtonElement>('video-cancel').disabled = false;
  const bar = $<HTMLProgressElement>('upload');
  bar.hidden = false;
  const job = poller.create('video', file, {
    signal: upload.signal,
    onProgress: (p) => {
      bar.value = p.loaded / p.total;
      $('upload-text').textContent =
        `${(p.loaded / 1e6).toFixed(1)} of ${(p.total / 1e6).toFixed(1)} MB${p.secondsLeft !== undefined ? `, ${Math.ceil(p.secondsLeft)} s left` : ''}`;
    },
  });
  void start(job).finally(() => ($<HTMLButtonElement>('video-cancel').disabled = true));
});
$('video-cancel').addEventListener('click', () => upload?.abort());

$('model-go').addEventListener('click', () => {
  const photos = [...($<HTMLInputElement>('photos').files ?? [])];
  const quality = $<HTMLSelectElement>('quality').value as 'fast' | 'standard' | 'high';
  void start(
    photos.length
      ? poller.create('model', { mode: 'image', images: photos, quality })
      : poller.create('model', { mode: 'text', prompt: $<HTMLInputElement>('prompt').value, quality }),
  );
});

// The dev server's one sandbox clock, shared by every visitor: a developer tool, kept on this page
// only. The control plane answers this page because it carries the dev server's token cookie.
$('forward').addEventListener('click', async () => {
  const r = await fetch('/sandbox/__sandbox/clock', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"advance_ms":600000}',
  });
  $('forward-status').textContent = r.ok
    ? 'The shared sandbox clock moved 10 minutes.'
    : `The sandbox refused (${r.status}): ${((await r.json().catch(() => null)) as { error?: { message?: string } } | null)?.error?.message ?? 'reload the page and try again'}`;
});

// On load: resume unfinished jobs (a lost creation is sent again with its key) and list them all.
void (async () => {
  try {
    await client.budget();
    const records = await poller.resume();
    for (const record of records.reverse()) {
      render(record);
      if (!isTerminal(record.status)) poller.watch(record.id, render);
    }
  } catch (err) {
    fail(err);
  }
})();
