/**
 * One polite live region per element, for milestones only (a stage, every 25 % of an upload, the
 * outcome once). Failures go through the error panel's role=alert instead. The same text is never
 * announced twice in a row, and the region is cleared before a new text so screen readers notice.
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';

export class AnnouncerController implements ReactiveController {
  readonly host: ReactiveControllerHost;
  #text = '';
  #last = '';
  #quarter = -1;

  constructor(host: ReactiveControllerHost) {
    this.host = host;
    host.addController(this);
  }

  hostConnected(): void {}

  /** Announces `text` unless it was the last thing announced. */
  say(text: string): void {
    if (!text || text === this.#last) return;
    this.#last = text;
    this.#text = '';
    this.host.requestUpdate();
    // A fresh node content on the next frame is what screen readers reliably pick up.
    setTimeout(() => {
      this.#text = text;
      this.host.requestUpdate();
    }, 50);
  }

  /** Announces progress at 25 %, 50 %, 75 % (and 100 % once); `text` gets the percentage. */
  progress(fraction: number, text: (percent: number) => string): void {
    const quarter = Math.floor(Math.max(0, Math.min(1, fraction)) * 4);
    if (quarter <= this.#quarter || quarter === 0) return;
    this.#quarter = quarter;
    this.say(text(quarter * 25));
  }

  /** Starts counting quarters again (a new upload). */
  resetProgress(): void {
    this.#quarter = -1;
  }

  /** The last announcement (tests and stories read it). */
  get text(): string {
    return this.#text;
  }

  /** Where the element's card puts the region; nothing while the region lives elsewhere (field mode). */
  elsewhere = false;

  render() {
    return this.elsewhere ? nothing : this.region();
  }

  /** The region itself. */
  region() {
    return html`<div class="sr-only" part="announcer" aria-live="polite" aria-atomic="true">${this.#text}</div>`;
  }
}
