import { html } from 'lit';
import { ref } from 'lit/directives/ref.js';
import { setCustomElementsManifest, type Preview } from '@storybook/web-components-vite';
import manifest from '../custom-elements.json';
import { playground } from '../src/playground/index.js';
import { clearStoredData } from '../src/client/stored-data.js';
import { LANGUAGES } from '../stories/languages.js';
import { componentDescription, publicArgTypes } from './docs.js';

// Autodocs: attributes, properties, methods, events, slots, parts, CSS properties and states of
// every element come from custom-elements.json (generated from the JSDoc), never written twice;
// only the public API (./docs.ts).
setCustomElementsManifest(manifest);

/** The elements a theme from the toolbar applies to (each follows `theme`, else the visitor's preference). */
const THEMED = 'video-to-3d-uploader, headshot-studio, model-generator, bg-tool, credit-badge';

/**
 * The toolbar's theme on every element of the story that does not set its own, now and as the
 * story adds elements (a story's own `theme` argument wins: it sets the attribute itself).
 */
function themed(theme: string) {
  let observer: MutationObserver | undefined;
  return ref((node) => {
    observer?.disconnect();
    if (!(node instanceof HTMLElement) || theme === 'auto') return;
    const apply = () => {
      for (const el of node.querySelectorAll(THEMED)) if (!el.hasAttribute('theme')) el.setAttribute('theme', theme);
    };
    apply();
    observer = new MutationObserver(apply);
    observer.observe(node, { childList: true, subtree: true });
  });
}

/** The component whose docs page last cleared the stored data (its stories share that page). */
let docsCleared: string | undefined;

const preview: Preview = {
  tags: ['autodocs'],
  loaders: [
    // Every story talks to the playground (the proxy and the sandbox in a Service Worker, named in
    // the preview's head by main.ts). On a browser's first visit it takes the preview and reloads
    // it once: no story renders before, so none calls a proxy that is not there yet.
    async () => ({ playground: await playground }),
    // Each story starts as a new visitor would: no job records, kept results or session from the
    // story shown before (the library's own logout, clearStoredData), so an idle story never
    // resumes another story's job. A docs page shows its component's stories together: it clears
    // once, before the first of them.
    async (context) => {
      if (context.viewMode === 'docs') {
        if (docsCleared === context.title) return {};
        docsCleared = context.title;
      } else docsCleared = undefined;
      await clearStoredData();
      return {};
    },
  ],
  parameters: {
    controls: { expanded: true },
    docs: { extractArgTypes: publicArgTypes, extractComponentDescription: componentDescription },
  },
  // The elements follow the closest [lang]: the toolbar sets it around every story.
  globalTypes: {
    locale: {
      description: 'Language of the elements (Arabic also right to left)',
      toolbar: { icon: 'globe', dynamicTitle: true, items: [...LANGUAGES] },
    },
    theme: {
      description: 'Theme of the elements: the visitor’s preference, light or dark',
      toolbar: {
        icon: 'mirror',
        dynamicTitle: true,
        items: [
          { value: 'auto', title: 'Theme: visitor’s preference' },
          { value: 'light', title: 'Light', icon: 'sun' },
          { value: 'dark', title: 'Dark', icon: 'moon' },
        ],
      },
    },
  },
  initialGlobals: { locale: 'en', theme: 'auto' },
  decorators: [
    (story, context) => {
      const lang = String(context.globals['locale'] ?? 'en');
      const theme = String(context.globals['theme'] ?? 'auto');
      const surface =
        theme === 'dark'
          ? 'background:#0d1117;color:#e6edf3;padding:16px'
          : theme === 'light'
            ? 'background:#fff;color:#1f2328;padding:16px'
            : '';
      return html`<div lang=${lang} dir=${lang === 'ar' ? 'rtl' : 'ltr'} style=${surface} ${themed(theme)}>
        ${story()}
      </div>`;
    },
  ],
};

export default preview;
