import type { ModelStats } from '../api/index.js';

export interface ViewerLoadDetail {
  src: string;
  /** GLB viewer: the file's statistics (the spec's fields), read from the file itself. */
  stats?: ModelStats;
  /** Splat viewer: the number of splats in the file. */
  splats?: number;
  /** Splat viewer: the number drawn (fewer than `splats` when the scene is thinned to the budget). */
  shown?: number;
}

/** A viewer showed its first frame of `src`. */
export class ViewerLoadedEvent extends Event {
  static readonly type = 'mk-viewer-loaded';
  readonly detail: ViewerLoadDetail;

  constructor(detail: ViewerLoadDetail) {
    super(ViewerLoadedEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-viewer-loaded': ViewerLoadedEvent;
  }
}
