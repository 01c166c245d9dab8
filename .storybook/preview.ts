import { html } from 'lit';
import { setCustomElementsManifest, type Preview } from '@storybook/web-components-vite';
import manifest from '../custom-elements.json';

// Autodocs: attributes, properties, events, slots, parts, CSS properties and states of every
// element come from custom-elements.json (generated from the JSDoc), never written twice.
setCustomElementsManifest(manifest);

const preview: Preview = {
  tags: ['autodocs'],
  parameters: { controls: { expanded: true } },
  // The elements follow the closest [lang]: the toolbar sets it around every story.
  globalTypes: {
    locale: { description: 'Language of the elements', toolbar: { icon: 'globe', items: [{ value: 'en', title: 'English' }, { value: 'de', title: 'Deutsch' }], dynamicTitle: true } },
  },
  initialGlobals: { locale: 'en' },
  decorators: [(story, context) => html`<div lang=${context.globals['locale'] ?? 'en'}>${story()}</div>`],
};

export default preview;
