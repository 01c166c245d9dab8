import { html } from 'lit';
import { setCustomElementsManifest, type Preview } from '@storybook/web-components-vite';
import manifest from '../custom-elements.json';
import { playground } from '../src/playground/index.js';

// Autodocs: attributes, properties, events, slots, parts, CSS properties and states of every
// element come from custom-elements.json (generated from the JSDoc), never written twice.
setCustomElementsManifest(manifest);

const preview: Preview = {
  tags: ['autodocs'],
  // Every story talks to the playground (the proxy and the sandbox in a Service Worker, named in
  // the preview's head by main.ts). On a browser's first visit it takes the preview and reloads
  // it once: no story renders before, so none calls a proxy that is not there yet.
  loaders: [async () => ({ playground: await playground })],
  parameters: { controls: { expanded: true } },
  // The elements follow the closest [lang]: the toolbar sets it around every story.
  globalTypes: {
    locale: {
      description: 'Language of the elements (Arabic also right to left)',
      toolbar: {
        icon: 'globe',
        dynamicTitle: true,
        items: [
          { value: 'en', title: 'English' },
          { value: 'de', title: 'Deutsch' },
          { value: 'fr', title: 'Français' },
          { value: 'es', title: 'Español' },
          { value: 'it', title: 'Italiano' },
          { value: 'pt-BR', title: 'Português (Brasil)' },
          { value: 'nl', title: 'Nederlands' },
          { value: 'pl', title: 'Polski' },
          { value: 'ja', title: '日本語' },
          { value: 'zh-Hans', title: '简体中文' },
          { value: 'ko', title: '한국어' },
          { value: 'ar', title: 'العربية' },
        ],
      },
    },
  },
  initialGlobals: { locale: 'en' },
  decorators: [
    (story, context) => {
      const lang = String(context.globals['locale'] ?? 'en');
      return html`<div lang=${lang} dir=${lang === 'ar' ? 'rtl' : 'ltr'}>${story()}</div>`;
    },
  ],
};

export default preview;
