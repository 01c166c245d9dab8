/**
 * How <video-to-3d-uploader> checks the video chosen (for `VideoCheckController`, which holds what
 * the checks found): its facts by the API's rules, a plan to make it fit where the browser can
 * (fit.ts), then a thumbnail and advice from a few of its frames; and the restart of a conversion a
 * reload stopped. Loaded with the first video chosen.
 */
import type { ReactiveControllerHost } from 'lit';
import type { CheckedVideo } from '../../client/validate-video.js';
import type { KeptChosen, VideoFit } from './fit.js';
import type { Advice } from './frame-checks.js';

/** What the checks fill in: `VideoCheckController` (check.ts). */
export interface VideoCheckState {
  readonly host: ReactiveControllerHost;
  file: File | undefined;
  checked: CheckedVideo | undefined;
  checking: boolean;
  thumb: string | undefined;
  advice: readonly Advice[];
  fit: VideoFit | undefined;
  skipped: string;
  interrupted: string;
  restarted: string;
  noStorage: boolean;
  /** Checks a video (the controller's `check`). */
  check(file: File): Promise<void>;
  /** A new abort for the checks of the converted video (stopping the last one). */
  judge(): AbortSignal;
}

const loadFit = () => import('./fit.js');

/** Checks `file`, which `c` holds (its `check` sets it and handles a refusal). */
export async function checkChosen(c: VideoCheckState, file: File, signal: AbortSignal): Promise<void> {
  const [{ validateVideo }, { storageAvailable }] = await Promise.all([
    import('../../client/validate-video.js'),
    import('../../client/job-database.js'),
  ]);
  c.noStorage = !(await storageAvailable());
  c.interrupted = '';
  if (file.name !== c.restarted) c.restarted = '';
  const checked = await validateVideo(file, signal).catch(async (err: unknown) => {
    if (signal.aborted) throw err;
    const fit = await (await loadFit()).fitOrRefuse(c.host, file, err, signal);
    c.fit = fit;
    return fit.checked;
  });
  if (signal.aborted) return;
  c.checked = checked;
  c.checking = false;
  const fit = c.fit;
  // The quality checks run again on the frames of the converted video: what is sent (its range,
  // its frames) is what they judge. Their own abort: cancelling the upload that follows keeps
  // them; another video or a reset stops them.
  if (fit)
    fit.onConverted = (converted) => void inspect(c, converted, fit.plan.trim.end - fit.plan.trim.start, c.judge());
  c.host.requestUpdate();
  // A video to trim: its frames are judged in the range sent by default, the first 3 minutes.
  const shown = await inspect(c, file, fit?.plan.trim.end ?? checked.durationSeconds, signal);
  if (!shown && !signal.aborted) c.skipped = await (await loadFit()).undecodedCodec(file);
}

/** Judges a few frames of `file` (the chosen video, or the converted one): the advice and the thumbnail shown. False when no frame could be read. */
async function inspect(c: VideoCheckState, file: File, durationSeconds: number, signal: AbortSignal) {
  const { inspectFrames } = await import('./frame-checks.js');
  const report = await inspectFrames(file, durationSeconds, signal);
  if (signal.aborted || !report.thumbnail) return false;
  c.advice = report.advice;
  if (c.thumb) URL.revokeObjectURL(c.thumb);
  c.thumb = URL.createObjectURL(report.thumbnail);
  c.host.requestUpdate();
  return true;
}

/**
 * Converts again the video a reload stopped converting, from its copy on this device: checked as
 * when it was chosen, the range sent as it was, then sent by the host's `start()` (one upload,
 * one charge). Where the copy is gone, says to choose the video again.
 */
export async function restart(c: VideoCheckState, name: string, kept: KeptChosen): Promise<void> {
  const fit = await loadFit();
  const file = await fit.keptChosen(kept.stored, name, kept.type);
  if (!file || c.file) {
    await fit.dropChosen(kept.stored);
    if (!c.file) c.interrupted ||= name;
    c.host.requestUpdate();
    return;
  }
  c.restarted = name;
  try {
    await c.check(file);
  } catch {
    // Refused on this visit after all: the refusal is the host's to show when the user chooses again.
  }
  if (c.file !== file || !c.fit) {
    c.restarted = '';
    await fit.dropChosen(kept.stored);
    c.interrupted ||= name;
    c.host.requestUpdate();
    return;
  }
  c.restarted = name;
  if (c.fit.trim) c.fit.setTrim(kept.trim.start, kept.trim.end);
  c.fit.kept = kept.stored;
  await (c.host as { start?(): Promise<void> }).start?.();
}
