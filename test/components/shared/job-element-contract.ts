/**
 * What every job element (<model-generator>, <video-to-3d-uploader>) must do across reloads and
 * documents, checked the same way for both (they share one job flow, JobRunController), and the
 * harness these checks need:
 * - `runJobElementTests(tag, …)`, from the element's own test file (its own stack, so its ledger is
 *   its own): a job started on a page that goes away mid-job (a real page: a frame removed, its
 *   locks released, its polling stopped) is adopted by the page that comes back, ends there once,
 *   and is charged once.
 * - `runFieldDocumentTests(tag, …)`, from test/components/field-documents (the /mk-field stack,
 *   whose jobs wait for the test's clock): a field shows only its own document's value; an empty
 *   field, a named form control and `resume="none"` never take the unfinished job another document
 *   started; a plain element on a page resumes it; the field that started it, opened again with its
 *   saved value, follows it to the end.
 * - `openJobPage(tag, attributes)`: one job element on a page of its own (job-element-page.ts).
 */
import { expect, fixture, html } from '@open-wc/testing';
import { until } from '../../fixtures/browser.js';

type JobElement = HTMLElement & {
  status: string;
  value: string;
  job?: { id: string; handle?: string };
  start(): Promise<void>;
  updateComplete: Promise<boolean>;
  readonly form: HTMLFormElement | null;
};

/** What a job element's page (job-element-page.ts) shows of itself. */
export interface JobPage<E extends HTMLElement = JobElement> {
  /** The job's polls the page made. */
  polls: number;
  /** Each status the element showed, in order (sampled every 10 ms). */
  statuses: string[];
  /** The progress bar while resending, one entry per change. */
  resend: { valuenow: number | null; text: string; handle: string | null }[];
  /** Each `mk-succeeded`: the job's id and `whileAway`. */
  succeeded: { whileAway: boolean; id: string }[];
  el: E;
  /** This browser's job list at the page's endpoint. */
  list(): Promise<{ status: string; id: string; handle?: string; request?: unknown }[]>;
}

/** Opens `tag` with `attributes` on a page of its own (an iframe); removing the frame is the page going away. */
export async function openJobPage<E extends HTMLElement = JobElement>(
  tag: string,
  attributes: Record<string, string>,
  height = 900,
): Promise<{ frame: HTMLIFrameElement; page: JobPage<E> }> {
  const frame = document.createElement('iframe');
  frame.src = `/test/components/job-element-page.html?${new URLSearchParams({ tag, ...attributes })}`;
  frame.style.cssText = `width:800px;height:${height}px`;
  document.body.append(frame);
  const page = await until(
    () => (frame.contentWindow as unknown as { page?: JobPage<E> }).page,
    15_000,
    'the page to load',
  );
  return { frame, page };
}

/** A file of a frame's own realm (its element checks `instanceof Blob` against its own globals). */
export const fileIn = (frame: HTMLIFrameElement, file: File): File =>
  new (frame.contentWindow as unknown as typeof globalThis).File([file], file.name, { type: file.type });

/** The element's own `input` and `change` events, as `"<type> <value>"`. */
export function valueEvents(el: HTMLElement & { value: string }): string[] {
  const log: string[] = [];
  for (const type of ['input', 'change'])
    el.addEventListener(type, (e) => e.composedPath()[0] === el && log.push(`${type} ${el.value}`));
  return log;
}

export const partOf = (el: Element, name: string): HTMLElement | null =>
  el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
/** What the field box says of its value (nothing yet, in progress, saved…). */
export const fieldStatus = (el: Element): string =>
  partOf(el, 'field-status')?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

/** Mounts `markup` and answers its `tag`, its field drawn where it is one. */
export async function mountIn<T extends HTMLElement>(markup: string, tag: string): Promise<T> {
  const wrap = await fixture<HTMLElement>(html`<div></div>`);
  wrap.innerHTML = markup;
  const el = wrap.querySelector<T & { updateComplete: Promise<boolean> }>(tag)!;
  await el.updateComplete;
  if (el.getAttribute('appearance') === 'field') await until(() => partOf(el, 'field'), 5_000, 'the field');
  return el;
}

export interface JobElementOptions {
  /** The element's attributes on its page (`endpoint` among them). */
  page: Record<string, string>;
  /** Starts a job on the page's element; resolves once the job exists. */
  start(page: { frame: HTMLIFrameElement; page: JobPage }): Promise<void>;
  /** Moves the stack's sandbox clock. */
  advance(ms: number): Promise<void>;
  /** The stack's charges for this element's jobs. */
  charges(): Promise<number>;
  /** How long the job may take to end once the clock moves. Default 30 s. */
  finishMs?: number;
  /** Checks of the first page once its job exists, before it goes away. */
  started?(page: { frame: HTMLIFrameElement; page: JobPage }): Promise<void> | void;
  /** Checks of the page that came back once the job ended there. */
  ended?(page: { frame: HTMLIFrameElement; page: JobPage }): Promise<void>;
}

/** The reload contract of a job element (see the file's comment). */
export function runJobElementTests(tag: string, o: JobElementOptions): void {
  describe(`<${tag}>: the job-element contract (reloads)`, function () {
    this.timeout(120_000);

    it('resumes a job after a reload mid-job, charged once', async () => {
      const before = await o.charges();
      const first = await openJobPage(tag, o.page);
      await o.start(first);
      const id = first.page.el.job!.id;
      await o.started?.(first);
      first.frame.remove(); // the page goes away mid-job
      await o.advance(10_000);
      const second = await openJobPage(tag, o.page);
      await until(() => second.page.el.job?.id === id, 10_000, 'the reloaded page to adopt the job');
      await until(
        async () => {
          await o.advance(30_000);
          return second.page.el.status === 'succeeded';
        },
        o.finishMs ?? 30_000,
        'the job to finish',
      );
      expect(second.page.succeeded.map((s) => s.id)).to.deep.equal([id]);
      // The result's viewer (or the box that stands in while its code loads) in the element's frame:
      // those rules come with the job views, which loaded lazily on this page.
      const root = second.page.el.shadowRoot!;
      const viewer = await until(
        () => root.querySelector<HTMLElement>('glb-viewer, splat-viewer, .viewer-wait') ?? undefined,
        20_000,
        'the result viewer',
      );
      const height = parseFloat(getComputedStyle(second.page.el).getPropertyValue('--mk-viewer-height'));
      expect(viewer.getBoundingClientRect().height, 'the viewer frame: --mk-viewer-height').to.be.closeTo(height, 1);
      // The element's frame, not the viewer's own default (#f6f8fa): the element's --_surface-2 (light).
      expect(getComputedStyle(viewer).backgroundColor, 'the viewer frame: its surface').to.equal('rgb(245, 246, 248)');
      await o.ended?.(second);
      expect(await o.charges()).to.equal(before + 1);
      second.frame.remove();
    });
  });
}

export interface FieldDocumentOptions {
  /** A stack whose jobs wait for the test's clock (/mk-field). */
  endpoint: string;
  /** More attributes of the field that starts the job (`mode="prompt" quality="fast"`). */
  attributes?: string;
  /** Starts a job on the expanded field; answers once it is sent. */
  start(el: HTMLElement): Promise<void>;
  /** Moves the stack's sandbox clock. */
  advance(ms: number): Promise<void>;
  /** How far each step moves the clock while the job runs to its end. */
  step: number;
  /** What the committed value holds besides `status: 'succeeded'`. */
  committed?: Record<string, unknown>;
}

/** Long enough for an element to read this browser's job list and adopt from it (it does within a second). */
const settle = () => new Promise((r) => setTimeout(r, 2_500));

/** The field-document contract of a job element (see the file's comment). */
export function runFieldDocumentTests(tag: string, o: FieldDocumentOptions): void {
  const { endpoint } = o;
  const mount = (attrs: string) => mountIn<JobElement>(`<${tag} endpoint="${endpoint}" ${attrs}></${tag}>`, tag);

  it(`<${tag}>: a job started in one field stays out of an empty field, a named form control and resume="none"; a plain element resumes it; the field that started it follows it to the end from its saved value`, async () => {
    const first = await mount(`appearance="field" ${o.attributes ?? ''} keep="none"`);
    const firstLog = valueEvents(first);
    expect((first as JobElement & { expand(reason: string): boolean }).expand('create')).to.equal(true);
    void o.start(first);
    await until(() => firstLog.some((e) => e.startsWith('input ')), 30_000, 'the running value');
    const saved = first.value;
    expect(JSON.parse(saved)).to.include({ status: 'running' });
    const id = first.job!.id;
    first.remove(); // the editor saves and opens another document

    for (const attrs of ['appearance="field"', 'resume="none"']) {
      const other = await mount(attrs);
      const log = valueEvents(other);
      await settle();
      expect(other.value, attrs).to.equal('');
      expect(other.job, attrs).to.equal(undefined);
      expect(log, attrs).to.deep.equal([]);
      if (attrs.includes('field')) expect(fieldStatus(other)).to.equal('Nothing made yet.');
      other.remove();
    }
    const inForm = await mountIn<JobElement>(
      `<form><${tag} endpoint="${endpoint}" name="result"></${tag}></form>`,
      tag,
    );
    const formLog = valueEvents(inForm);
    await settle();
    expect([inForm.value, inForm.job, formLog.length], 'a named control in a form').to.deep.equal(['', undefined, 0]);
    expect(new FormData(inForm.form!).get('result')).to.equal('');
    inForm.remove();

    // A plain element on a page keeps resuming this browser's unfinished job.
    const plain = await mount('');
    await until(() => plain.job?.id === id, 10_000, 'the plain element resumes the job');
    plain.remove();

    // The document that started it, opened again with its saved (running) value, follows it to the end.
    const again = await mount('appearance="field"');
    const log = valueEvents(again);
    again.value = saved;
    await until(() => fieldStatus(again).startsWith('In progress'), 10_000, 'in progress');
    await until(
      async () => {
        await o.advance(o.step);
        return log.some((e) => e.startsWith('change '));
      },
      60_000,
      'the result committed',
    );
    expect(JSON.parse(again.value)).to.include({ status: 'succeeded', ...o.committed });
  });
}
