/**
 * `UrlField`: the address field of <bg-tool>, what it holds and whether the last address given was
 * refused. An address is checked here (the client's rules for `image_url`) before the service is
 * asked to fetch it; typing forgets a refusal.
 */
import type { ReactiveControllerHost } from 'lit';
import { validateImageUrl } from '../../client/validate-url.js';

export class UrlField {
  readonly host: ReactiveControllerHost;
  /** What the field holds. */
  text = '';
  /** The last address given was refused. */
  invalid = false;

  constructor(host: ReactiveControllerHost) {
    this.host = host;
  }

  /** The user typed `text`. */
  type(text: string): void {
    this.text = text;
    this.invalid = false;
    this.host.requestUpdate();
  }

  /** `url` trimmed, where it is an address the service takes; otherwise undefined, and the field says it was refused. */
  check(url: string): string | undefined {
    const address = url.trim();
    try {
      validateImageUrl(address, 'image_url');
    } catch {
      this.invalid = true;
      this.host.requestUpdate();
      return undefined;
    }
    this.invalid = false;
    this.host.requestUpdate();
    return address;
  }

  /** Empties the field. */
  clear(): void {
    this.text = '';
    this.invalid = false;
    this.host.requestUpdate();
  }
}
