/** A kept file as a value named it: a URL that does not expire, its type and size, the site's or store's id. */
export interface ReleasedAsset {
  url: string;
  type: string;
  bytes: number;
  id?: string;
}

export interface AssetsReleasedDetail {
  /** The assets as the value named them (`id` is what `assetHandler` answered). */
  assets: ReleasedAsset[];
  /** `replaced`: a new result was committed in their place; `removed`: the user removed the result. */
  reason: 'replaced' | 'removed';
}

/**
 * Kept files the element's value named and no longer names (after the `change` that dropped them),
 * so a site can delete what it stored through `assetHandler` once the document is saved.
 */
export class AssetsReleasedEvent extends Event {
  static readonly type = 'mk-assets-released';
  readonly detail: AssetsReleasedDetail;

  constructor(detail: AssetsReleasedDetail) {
    super(AssetsReleasedEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-assets-released': AssetsReleasedEvent;
  }
}
