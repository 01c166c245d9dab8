/**
 * The family's words (README "The family's words"): one table that every product element follows.
 * The README's table is made from these rows (`vocabularyTable()`; test/lint/vocabulary.test.ts
 * fails when they differ), and the contract suite (product-element-contract.ts) asserts each
 * element's column: the status words it can reach, its parts, events and methods.
 */

export const TAGS = ['video-to-3d-uploader', 'model-generator', 'headshot-studio', 'bg-tool', 'credit-badge'] as const;
export type Tag = (typeof TAGS)[number];
export type Kind = 'status' | 'part' | 'event' | 'method' | 'attribute' | 'behaviour';

export interface Word {
  kind: Kind;
  /** The word as code uses it (`sending`, `primary-button`, `mk-sent`, `cancel()`). */
  word: string;
  meaning: string;
  /** Where it applies: `yes`, or why not (a cell that is not `yes` is an absence with its reason). */
  on: Partial<Record<Tag, string>>;
}

const FOUR = {
  'video-to-3d-uploader': 'yes',
  'model-generator': 'yes',
  'headshot-studio': 'yes',
  'bg-tool': 'yes',
} as const;
const JOBS = { 'video-to-3d-uploader': 'yes', 'model-generator': 'yes' } as const;

export const VOCABULARY: readonly Word[] = [
  // Status words: `status` and exactly one custom state (`:state(sending)`).
  { kind: 'status', word: 'idle', meaning: 'nothing usable chosen yet', on: FOUR },
  {
    kind: 'status',
    word: 'ready',
    meaning: 'the input is checked: `start()` can send it (the badge: the number is shown)',
    on: { ...FOUR, 'credit-badge': 'yes' },
  },
  {
    kind: 'status',
    word: 'sending',
    meaning: 'the main request is out and not answered yet',
    on: { ...FOUR, 'video-to-3d-uploader': 'no: `uploading` says more' },
  },
  { kind: 'status', word: 'succeeded', meaning: 'a result is shown (and is the value)', on: FOUR },
  {
    kind: 'status',
    word: 'failed',
    meaning: 'the request or the job failed; the error panel says why and what to do',
    on: { ...FOUR, 'credit-badge': 'yes' },
  },
  {
    kind: 'status',
    word: 'checking',
    meaning: 'the chosen video is read on this device',
    on: { 'video-to-3d-uploader': 'yes' },
  },
  {
    kind: 'status',
    word: 'converting',
    meaning: 'the video is made to fit in the browser',
    on: { 'video-to-3d-uploader': 'yes' },
  },
  {
    kind: 'status',
    word: 'uploading',
    meaning: 'sending, with the bytes, rate and time left of the upload',
    on: { 'video-to-3d-uploader': 'yes' },
  },
  {
    kind: 'status',
    word: 'resending',
    meaning: 'a request cut by a reload is sent again with its key (never charged twice)',
    on: JOBS,
  },
  { kind: 'status', word: 'queued', meaning: "the job waits for a worker (the API's word)", on: JOBS },
  { kind: 'status', word: 'processing', meaning: "the job is being made (the API's word)", on: JOBS },
  {
    kind: 'status',
    word: 'expired',
    meaning: "the job's result was purged upstream",
    on: { 'video-to-3d-uploader': 'yes' },
  },
  {
    kind: 'status',
    word: 'partial',
    meaning: 'some headshots came back, the others can be retried',
    on: { 'headshot-studio': 'yes' },
  },
  { kind: 'status', word: 'loading', meaning: 'the number is being read', on: { 'credit-badge': 'yes' } },
  { kind: 'status', word: 'offline', meaning: 'the last number, marked offline', on: { 'credit-badge': 'yes' } },
  // Parts shared by meaning (each element's own are in custom-elements.json).
  { kind: 'part', word: 'base', meaning: 'the card around everything', on: { ...FOUR, 'credit-badge': 'yes' } },
  { kind: 'part', word: 'drop-zone', meaning: 'the area that takes a dropped file', on: FOUR },
  { kind: 'part', word: 'choose-button', meaning: 'opens the file picker', on: FOUR },
  { kind: 'part', word: 'primary-button', meaning: 'the main action, what `start()` does', on: FOUR },
  {
    kind: 'part',
    word: 'cancel-button',
    meaning: 'what `cancel()` does, while the cancel costs nothing',
    on: {
      ...JOBS,
      'headshot-studio': 'no: a few seconds, nothing to stop',
      'bg-tool': 'no: a few seconds, nothing to stop',
    },
  },
  {
    kind: 'part',
    word: 'download',
    meaning: 'every download link or button (a second part names which: `download-ply`, `download-all`)',
    on: FOUR,
  },
  { kind: 'part', word: 'progress', meaning: 'the one progress bar', on: FOUR },
  { kind: 'part', word: 'cost', meaning: 'the cost line, before anything is spent', on: FOUR },
  { kind: 'part', word: 'wait', meaning: 'the countdown of a 429', on: FOUR },
  { kind: 'part', word: 'error', meaning: 'the error panel', on: FOUR },
  {
    kind: 'part',
    word: 'retry-button',
    meaning: 'tries the failed thing again',
    on: { 'model-generator': 'yes', 'headshot-studio': 'yes', 'credit-badge': 'yes' },
  },
  // Events: `mk-` and what happened, in the past tense; all bubble and are composed.
  {
    kind: 'event',
    word: 'mk-file-selected',
    meaning: 'a file was chosen, dropped, pasted or given to `selectFile()`; cancelable: `preventDefault()` refuses it',
    on: FOUR,
  },
  {
    kind: 'event',
    word: 'mk-sent',
    meaning:
      'the main request left this page: `detail.idempotencyKey` (a request a reload cut is sent again under `resending`, with no second `mk-sent`)',
    on: FOUR,
  },
  {
    kind: 'event',
    word: 'mk-succeeded',
    meaning: "a result was made: `detail.idempotencyKey` and what the element made (a job's record, an image, a batch)",
    on: FOUR,
  },
  {
    kind: 'event',
    word: 'mk-failed',
    meaning:
      "the request or its job failed: `detail.idempotencyKey`, `reason`, `params`, `refunded` (a job's record too)",
    on: FOUR,
  },
  { kind: 'event', word: 'mk-job-created', meaning: 'the job exists (created, or adopted after a reload)', on: JOBS },
  { kind: 'event', word: 'mk-job-progressed', meaning: 'the job moved (queued, processing, percent)', on: JOBS },
  {
    kind: 'event',
    word: 'mk-upload-progressed',
    meaning: 'bytes of the upload went out',
    on: { 'video-to-3d-uploader': 'yes' },
  },
  {
    kind: 'event',
    word: 'mk-headshot-chosen',
    meaning: 'the user chose one headshot (now the value)',
    on: { 'headshot-studio': 'yes' },
  },
  {
    kind: 'event',
    word: 'mk-expand-requested',
    meaning: 'field mode is about to open the whole element; cancelable',
    on: FOUR,
  },
  {
    kind: 'event',
    word: 'mk-assets-released',
    meaning: 'after a `change`, the kept files the value no longer names',
    on: FOUR,
  },
  { kind: 'event', word: 'mk-credits-changed', meaning: 'the credits left changed', on: { 'credit-badge': 'yes' } },
  // Methods.
  { kind: 'method', word: 'start()', meaning: 'the main action; a second call while one runs does nothing', on: FOUR },
  {
    kind: 'method',
    word: 'cancel()',
    meaning:
      'stops the request out (no `mk-failed`); its key is kept, so starting again replays it, never a second charge',
    on: FOUR,
  },
  {
    kind: 'method',
    word: 'selectFile(file)',
    meaning:
      'takes a file as if the user had chosen it (`mk-file-selected` first); the model generator adds a photo, the others replace theirs',
    on: FOUR,
  },
  { kind: 'method', word: 'reset()', meaning: 'back to the start, no event (as a form reset)', on: FOUR },
  { kind: 'method', word: 'refresh()', meaning: 'reads the number again', on: { 'credit-badge': 'yes' } },
  // The camera: one attribute the file intake reads; a camera button or a live preview hands what it takes to the same intake.
  {
    kind: 'attribute',
    word: 'capture',
    meaning:
      "`environment` or `user`: the phone's camera instead of the file list (a camera button opens this one too); what any camera takes goes through the same intake and checks as a chosen file (`mk-file-selected`, source `camera`)",
    on: FOUR,
  },
  // Behaviour every job element shares.
  {
    kind: 'behaviour',
    word: 'opening a recent job',
    meaning: 'the value is cleared (`input`, `change`), then the job shown becomes the value once it has succeeded',
    on: JOBS,
  },
];

/** The column a cell is in. */
const HEADINGS: Record<Tag, string> = {
  'video-to-3d-uploader': 'uploader',
  'model-generator': 'model',
  'headshot-studio': 'headshot',
  'bg-tool': 'bg-tool',
  'credit-badge': 'badge',
};

const cell = (value: string | undefined) => (value === undefined ? '' : value === 'yes' ? '✓' : value);

/** The README's table, as markdown (one row per word). */
export function vocabularyTable(): string {
  const head = `| | word | meaning | ${TAGS.map((t) => HEADINGS[t]).join(' | ')} |`;
  const rule = `|${'---|'.repeat(3 + TAGS.length)}`;
  const rows = VOCABULARY.map(
    (w) => `| ${w.kind} | \`${w.word}\` | ${w.meaning} | ${TAGS.map((t) => cell(w.on[t])).join(' | ')} |`,
  );
  return [head, rule, ...rows].join('\n');
}

/** The words of `kind` that `tag` has. */
export function wordsOf(tag: Tag, kind: Kind): string[] {
  return VOCABULARY.filter((w) => w.kind === kind && w.on[tag] === 'yes').map((w) => w.word);
}
