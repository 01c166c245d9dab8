import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import '../src/components/headshot-studio/define.js';
import type { HeadshotStudio } from '../src/components/headshot-studio/headshot-studio.js';
import { sampleSelfie } from '../demo/samples.js';
import { asField, ENDPOINT, fault, phoneFile, POOR_ENDPOINT, until } from './sandbox.js';
import { LANG_CONTROL } from './languages.js';

interface Args {
  endpoint: string;
  lang: string;
  theme: '' | 'light' | 'dark';
  headshotStyle: string;
  width: string;
}

/** Renders the element, then drives it through the playground (proxy + sandbox) into the story's state. */
function drive(args: Args, steps?: (el: HeadshotStudio) => Promise<void>) {
  const el = document.createElement('headshot-studio');
  el.endpoint = args.endpoint;
  el.setAttribute('headshot-style', args.headshotStyle);
  if (args.lang) el.lang = args.lang;
  if (args.theme) el.theme = args.theme;
  el.style.maxWidth = args.width;
  if (steps) void customElements.whenDefined('headshot-studio').then(() => steps(el));
  return el;
}

async function ready(el: HeadshotStudio): Promise<void> {
  el.selectFile(await sampleSelfie());
  await until(() => el.status === 'ready');
}

const meta: Meta<Args> = {
  title: 'Elements/headshot-studio',
  component: 'headshot-studio',
  args: { endpoint: ENDPOINT, lang: '', theme: '', headshotStyle: 'corporate', width: '720px' },
  argTypes: {
    theme: { control: 'inline-radio', options: ['', 'light', 'dark'] },
    lang: LANG_CONTROL,
    headshotStyle: { control: 'inline-radio', options: ['corporate', 'business-casual', 'bewerbung', 'creative'] },
    width: { control: 'inline-radio', options: ['720px', '390px', '100%'] },
  },
  render: (args) => drive(args),
};
export default meta;

type Story = StoryObj<Args>;

/** No photo yet: picker, camera, drop zone, limits and the cost of a full batch. */
export const Idle: Story = {};

/** A file that is not an image, refused before any byte is sent. */
export const Refused: Story = {
  render: (args) =>
    drive(args, async (el) => el.selectFile(new File(['not a photo'], 'me.jpg', { type: 'image/jpeg' }))),
};

/** A dark, small photo: advice on what to do, never blocking. */
export const Advice: Story = {
  render: (args) =>
    drive(args, async (el) => {
      const canvas = new OffscreenCanvas(300, 360);
      const ctx = canvas.getContext('2d')!;
      ctx.fillStyle = '#111';
      ctx.fillRect(0, 0, 300, 360);
      ctx.fillStyle = '#3a2c22';
      ctx.beginPath();
      ctx.ellipse(150, 150, 60, 80, 0, 0, Math.PI * 2);
      ctx.fill();
      el.selectFile(new File([await canvas.convertToBlob({ type: 'image/png' })], 'dark.png', { type: 'image/png' }));
    }),
};

/**
 * An iPhone's 48 MP HEIC selfie (stories/assets/phone-selfie.heic), made to fit on this device
 * before anything is spent: decoded, scaled to the element's 12 MP and sent as JPEG; the facts line
 * says so ("Converted from HEIC, 48 MP to 12 MP, …").
 */
export const PhotoMadeToFit: Story = {
  render: (args) =>
    drive(args, async (el) => {
      el.selectFile(await phoneFile('phone-selfie.heic'));
      await until(() => el.status === 'ready');
    }),
};

/** The live camera with its head-and-shoulders guide (the browser asks for permission). */
export const Camera: Story = { render: (args) => drive(args, (el) => el.openCamera()) };

/** A checked photo: the four styles as the API describes them, the versions, the cost. */
export const Ready: Story = { render: (args) => drive(args, ready) };

/** Making them: one placeholder per requested slot. */
export const Sending: Story = {
  tags: ['sandbox-state'],
  render: (args) =>
    drive(args, async (el) => {
      await ready(el);
      await fault('slow', { ms: 15_000 }); // the sandbox holds its answer back: time to look
      void el.start();
    }),
};

/** All four, charged what the response says; one chosen as the form value. */
export const Succeeded: Story = {
  render: (args) =>
    drive(args, async (el) => {
      await ready(el);
      await el.start();
      el.choose(0);
    }),
};

/** Sandbox fault `variant_fail` on slot 3: its message and "retry this one" at the price of one. */
export const OneSlotFailed: Story = {
  tags: ['sandbox-state'],
  render: (args) =>
    drive(args, async (el) => {
      await ready(el);
      await fault('variant_fail', { variants: [3] });
      await el.start();
    }),
};

/** Sandbox fault `all_variants_fail` (a 500): nothing was charged. */
export const AllFailed: Story = {
  tags: ['sandbox-state'],
  render: (args) =>
    drive(args, async (el) => {
      await ready(el);
      await fault('all_variants_fail');
      await el.start();
    }),
};

/** Sandbox fault `rate_limit` (a 429): a countdown, then it goes on by itself. */
export const RateLimited: Story = {
  tags: ['sandbox-state'],
  render: (args) =>
    drive(args, async (el) => {
      await ready(el);
      await fault('rate_limit');
      void el.start();
    }),
};

/** A session with 5 credits (the playground's 5-credit endpoint, mediakit-poor): the cost line says so; generating anyway is a 402. */
export const NotEnoughCredits: Story = {
  args: { endpoint: POOR_ENDPOINT },
  render: (args) =>
    drive(args, async (el) => {
      el.topUpHref = '#top-up';
      await ready(el);
      await el.start();
    }),
};

/** German, by the closest [lang]. */
export const German: Story = { args: { lang: 'de', headshotStyle: 'bewerbung' }, render: (args) => drive(args, ready) };

/** Dark theme on a phone-width column, with results. */
export const DarkPhone: Story = {
  args: { theme: 'dark', width: '390px' },
  render: (args) =>
    html`<div style="background:#0d1117;color:#e6edf3;padding:16px">${drive(args, async (el) => {
      await ready(el);
      await el.start();
    })}</div>`,
};

/** Theming through the public custom properties. */
export const Themed: Story = {
  render: (args) => {
    const el = drive(args, ready);
    el.style.cssText += ';--mk-accent:#7c3aed;--mk-radius:4px;--mk-surface-2:#f5f3ff;--mk-border:#ddd6fe';
    return el;
  },
};

/** Field mode (`appearance="field"`), as a CMS edit form shows it: Create opens the whole tool in a dialog. */
export const Field: Story = { render: (args, context) => asField(meta.render!(args, context)) };

/** Field mode with a result made and kept: its picture, what made it, Open / Replace / Remove. */
export const FieldWithResult: Story = {
  render: (args, context) => asField(Succeeded.render!(args, context)),
};
