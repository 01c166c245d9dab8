// test/apps/wordpress-block/plugin/mediakit-background-removal/edit.js
// The block's edit view. React (through @wordpress/element) runs in the editor's window, but the
// block renders inside the canvas iframe: `<bg-tool>` is created by the iframe's document and
// upgraded by the iframe's own custom element registry, which the CDN build defines there (see
// the README: enqueue_block_assets / __unstableResolvedAssets). Nothing of @mediakit/elements is
// imported here, so the editor window never defines these classes.
import { useBlockProps } from '@wordpress/block-editor';
import { useEffect, useRef } from '@wordpress/element';
import { uploadMedia } from '@wordpress/media-utils';

/**
 * The element's `assetHandler`: each committed file goes to the media library (POST /wp/v2/media
 * through @wordpress/media-utils, as the Image block's uploads do), and the value names the
 * attachment's id and permanent URL.
 */
/** @type {import('@mediakit/elements').AssetHandler} */
export function keepInMediaLibrary(blob, { filename, type }) {
  return new Promise((resolve, reject) => {
    uploadMedia({
      // A File of this window: the blob comes from the iframe's realm.
      filesList: [new File([blob], filename, { type })],
      multiple: false,
      onFileChange([attachment]) {
        // Called first with a blob: placeholder, then with the saved attachment.
        if (attachment?.id) resolve({ id: String(attachment.id), url: attachment.url });
      },
      onError: reject,
    });
  });
}

/** @param {{ attributes: { value: string }, setAttributes(a: { value: string }): void }} props */
export default function Edit({ attributes, setAttributes }) {
  const ref = useRef(/** @type {import('@mediakit/elements').BgTool | null} */ (null));
  const blockProps = useBlockProps();

  // The element's properties and its `change` event. The element may not be defined yet in the
  // iframe (the CDN module is still loading): wait for the iframe's registry, never this window's.
  useEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const registry = /** @type {Window} */ (el.ownerDocument.defaultView).customElements;
    const onChange = () => setAttributes({ value: el.value });
    let live = true;
    registry.whenDefined(el.localName).then(() => {
      if (!live) return;
      el.assetHandler = keepInMediaLibrary;
      el.addEventListener('change', onChange);
    });
    return () => {
      live = false;
      el.removeEventListener('change', onChange);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Undo/redo or another editor changing the attribute: the element shows it (setting the same
  // string again does nothing, so the element's own change coming back here is harmless).
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    /** @type {Window} */ (el.ownerDocument.defaultView).customElements.whenDefined(el.localName).then(() => {
      el.value = attributes.value;
    });
  }, [attributes.value]);

  return (
    <div {...blockProps}>
      <bg-tool ref={ref} appearance="field" />
    </div>
  );
}
