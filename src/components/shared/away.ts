/**
 * "Finished while you were away": with `notify`, the element asks for notification permission on a
 * user gesture (never on load) and shows a notification when a job ends while the page is hidden;
 * while hidden it also marks `document.title` and restores it when the page shows again.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

const MARK = '● ';

export class AwayController implements ReactiveController {
  readonly host: ReactiveControllerHost & HTMLElement & { notify: boolean };
  #marked: string | undefined;

  constructor(host: ReactiveControllerHost & HTMLElement & { notify: boolean }) {
    this.host = host;
    host.addController(this);
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.#onVisibility);
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.#onVisibility);
    this.#restore();
  }

  /** Call from a click handler: asks once, only when `notify` is set and the user has not decided. */
  askPermission(): void {
    if (!this.host.notify || typeof Notification === 'undefined' || Notification.permission !== 'default') return;
    void Notification.requestPermission().catch(() => undefined);
  }

  /** A job ended: tells a user who is not looking. */
  finished(title: string, body: string): void {
    if (document.visibilityState !== 'hidden' || !this.host.notify) return;
    if (this.#marked === undefined) {
      this.#marked = document.title;
      document.title = MARK + document.title;
    }
    if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      try {
        const n = new Notification(title, { body, tag: `mediakit-${title}` });
        n.onclick = () => {
          window.focus();
          n.close();
        };
      } catch {
        // Some browsers allow notifications only from a service worker; the title mark remains.
      }
    }
  }

  #onVisibility = () => {
    if (document.visibilityState === 'visible') this.#restore();
  };

  #restore(): void {
    if (this.#marked === undefined) return;
    if (document.title.startsWith(MARK.trim())) document.title = this.#marked;
    this.#marked = undefined;
  }
}
