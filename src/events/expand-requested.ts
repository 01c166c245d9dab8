/** Why a field asks to open the whole tool: nothing yet, its result, or to start over. */
export type ExpandReason = 'create' | 'open' | 'replace';

export interface RequestExpandDetail {
  reason: ExpandReason;
}

/**
 * Field mode (`appearance="field"`) is about to open the whole tool in its own dialog. Cancel it
 * to show the tool in the host's own modal instead (a full element bound to the same `value`).
 */
export class ExpandRequestedEvent extends Event {
  static readonly type = 'mk-expand-requested';
  readonly detail: RequestExpandDetail;

  constructor(detail: RequestExpandDetail) {
    super(ExpandRequestedEvent.type, { bubbles: true, composed: true, cancelable: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-expand-requested': ExpandRequestedEvent;
  }
}
