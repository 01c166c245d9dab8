// The stand-in for WordPress's post editor: Gutenberg's own block-editor packages (the same ones
// wp-admin runs, from npm) around the post REST API of server.mjs. What WordPress's PHP would do
// (register the plugin's block, enqueue its assets into the canvas iframe, load and save the post)
// is done here in a few lines; the plugin itself (plugin/…) is written exactly as for WordPress.
import apiFetch from '@wordpress/api-fetch';
import {
  BlockCanvas,
  BlockEditorKeyboardShortcuts,
  BlockEditorProvider,
  BlockInspector,
  Inserter,
} from '@wordpress/block-editor';
import * as blocksApi from '@wordpress/blocks';
import { Button, Popover, SlotFillProvider } from '@wordpress/components';
import * as data from '@wordpress/data';
import { createRoot, StrictMode, useCallback, useEffect, useMemo, useState } from '@wordpress/element';
import { uploadMedia } from '@wordpress/media-utils';
import '@wordpress/components/build-style/style.css';
import '@wordpress/block-editor/build-style/style.css';
import contentStyles from '@wordpress/block-editor/build-style/content.css?url';
import './editor.css';
// The plugin's editorScript (block.json), as WordPress enqueues it in the editor's window.
import '../plugin/mediakit-background-removal/index.js';

// The globals wp-admin has (wp.data, wp.blocks), for scripts and the journey's checks.
window.wp = { ...window.wp, data, blocks: blocksApi, apiFetch };

// wp-api-fetch's setup as wp-admin prints it: the REST root and the nonce of the signed-in user.
apiFetch.use(apiFetch.createRootURLMiddleware(`${location.origin}/wp-json/`));
apiFetch.use(apiFetch.createNonceMiddleware(window.wpApiSettings?.nonce ?? 'local'));

/**
 * What `_wp_get_iframed_editor_assets()` hands the canvas iframe: the content styles, and the
 * scripts enqueued with `enqueue_block_assets` — here the mediakit CDN build, one ES module that
 * defines <bg-tool> and the other tags in the iframe's own window. (WordPress 6.3+ fills this
 * setting itself; in a real plugin it is the PHP in README.md.)
 */
const resolvedAssets = {
  styles: `<link rel="stylesheet" href="${contentStyles}">`,
  scripts: '<script type="module" src="/cdn/mediakit-elements.js"></script>',
};

function mediaUpload(args) {
  return uploadMedia({ ...args, wpAllowedMimeTypes: null });
}

function Editor({ postId }) {
  const [post, setPost] = useState(null);
  const [blocks, setBlocks] = useState([]);
  const [saveState, setSaveState] = useState('clean');
  const [error, setError] = useState('');

  useEffect(() => {
    apiFetch({ path: `/wp/v2/posts/${postId}?context=edit` }).then(
      (p) => {
        setPost(p);
        setBlocks(blocksApi.parse(p.content.raw));
      },
      (e) => setError(e.message ?? String(e)),
    );
  }, [postId]);

  const settings = useMemo(
    () => ({
      mediaUpload,
      hasFixedToolbar: false,
      __unstableResolvedAssets: resolvedAssets,
    }),
    [],
  );

  const edit = useCallback((next) => {
    setBlocks(next);
    setSaveState('dirty');
  }, []);

  const save = useCallback(async () => {
    setSaveState('saving');
    try {
      await apiFetch({
        path: `/wp/v2/posts/${postId}`,
        method: 'POST',
        data: { content: blocksApi.serialize(blocks) },
      });
      setSaveState('saved');
    } catch (e) {
      setError(e.message ?? String(e));
      setSaveState('failed');
    }
  }, [blocks, postId]);

  if (error) return <p role="alert">{error}</p>;
  if (!post) return <p className="editor-loading">Loading the post…</p>;
  return (
    <SlotFillProvider>
      <BlockEditorProvider
        value={blocks}
        onInput={edit}
        onChange={edit}
        settings={settings}
        // One registry with wp.data, as the post editor does.
        useSubRegistry={false}
      >
        <div className="editor-frame">
          <header className="editor-header">
            <Inserter rootClientId={undefined} position="bottom right" />
            <h1>{post.title.raw}</h1>
            <span className="editor-save-state" data-save-state={saveState}>
              {
                { clean: '', dirty: 'Unsaved changes', saving: 'Saving…', saved: 'Saved', failed: 'Not saved' }[
                  saveState
                ]
              }
            </span>
            <Button
              variant="primary"
              onClick={save}
              isBusy={saveState === 'saving'}
              disabled={saveState === 'saving'}
              __next40pxDefaultSize
            >
              Save
            </Button>
          </header>
          <div className="editor-body">
            <BlockEditorKeyboardShortcuts.Register />
            <div className="editor-canvas">
              <BlockCanvas height="100%" />
            </div>
            <aside className="editor-sidebar">
              <BlockInspector />
            </aside>
          </div>
        </div>
        <Popover.Slot />
      </BlockEditorProvider>
    </SlotFillProvider>
  );
}

const postId = new URLSearchParams(location.search).get('post') ?? '1';
createRoot(document.getElementById('editor')).render(
  <StrictMode>
    <Editor postId={postId} />
  </StrictMode>,
);
