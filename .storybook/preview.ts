import { html } from 'lit';
import type { Preview } from '@storybook/web-components-vite';

const preview: Preview = {
  parameters: { controls: { expanded: true } },
  // The elements follow the closest [lang]: the toolbar sets it around every story.
  globalTypes: {
    locale: { description: 'Language of the elements', toolbar: { icon: 'globe', items: [{ value: 'en', title: 'English' }, { value: 'de', title: 'Deutsch' }], dynamicTitle: true } },
  },
  initialGlobals: { locale: 'en' },
  decorators: [(story, context) => html`<div lang=${context.globals['locale'] ?? 'en'}>${story()}</div>`],
};

export default preview;
