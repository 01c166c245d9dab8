export interface CreditsChangedDetail {
  /** Credits this session may still spend (the proxy's X-Credits-Remaining), when known. */
  remaining: number | undefined;
  /** Credits charged by the call that caused the change (0 for a refresh). */
  charged: number;
  /** The proxy endpoint the credits belong to. */
  endpoint: string;
}

/** The credits left changed: after a charged call on this page or in another tab, or a budget refresh. */
export class CreditsChangedEvent extends Event {
  static readonly type = 'mk-credits-changed';
  readonly detail: CreditsChangedDetail;

  constructor(detail: CreditsChangedDetail) {
    super(CreditsChangedEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-credits-changed': CreditsChangedEvent;
  }
}
