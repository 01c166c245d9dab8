import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import '../src/components/bg-tool/define.js';
import type { BgTool } from '../src/components/bg-tool/bg-tool.js';
import { sampleProduct } from '../demo/samples.js';
import { asField, ENDPOINT, fault, phoneFile, until } from './sandbox.js';
import { LANG_CONTROL } from './languages.js';

interface Args {
  endpoint: string;
  lang: string;
  theme: '' | 'light' | 'dark';
  size: 'auto' | 'preview' | 'full';
  format: 'png' | 'jpg';
  bgColor: string;
  crop: boolean;
  width: string;
}

/** Renders the element, then drives it through the playground (proxy + sandbox) into the story's state. */
function drive(args: Args, steps?: (el: BgTool) => Promise<void>) {
  const el = document.createElement('bg-tool');
  el.endpoint = args.endpoint;
  el.size = args.size;
  el.format = args.format;
  el.bgColor = args.bgColor;
  el.crop = args.crop;
  if (args.lang) el.lang = args.lang;
  if (args.theme) el.theme = args.theme;
  el.style.maxWidth = args.width;
  if (steps) void customElements.whenDefined('bg-tool').then(() => steps(el));
  return el;
}

async function ready(el: BgTool): Promise<void> {
  el.selectFile(await sampleProduct());
  await until(() => el.status === 'ready');
}

async function result(el: BgTool): Promise<void> {
  await ready(el);
  await el.start();
}

const meta: Meta<Args> = {
  title: 'Elements/bg-tool',
  component: 'bg-tool',
  args: {
    endpoint: ENDPOINT,
    lang: '',
    theme: '',
    size: 'auto',
    format: 'png',
    bgColor: 'none',
    crop: false,
    width: '720px',
  },
  argTypes: {
    theme: { control: 'inline-radio', options: ['', 'light', 'dark'] },
    lang: LANG_CONTROL,
    size: { control: 'inline-radio', options: ['auto', 'preview', 'full'] },
    format: { control: 'inline-radio', options: ['png', 'jpg'] },
    bgColor: { control: 'text' },
    width: { control: 'inline-radio', options: ['720px', '390px', '100%'] },
  },
  render: (args) => drive(args),
};
export default meta;

type Story = StoryObj<Args>;

/** No image yet: picker, drop zone, address field. */
export const Idle: Story = {};

/** A file that is not an image, refused before any byte is sent. */
export const Refused: Story = {
  render: (args) => drive(args, async (el) => el.selectFile(new File(['hello'], 'mug.png', { type: 'image/png' }))),
};

/** An image and the options, with the cost. */
export const Ready: Story = { render: (args) => drive(args, ready) };

/**
 * An iPhone's 48 MP HEIC photo (stories/assets/phone-selfie.heic), which the API does not take:
 * decoded on this device and sent as JPEG under 12 MB; the facts line says so ("Converted from HEIC, …").
 */
export const PhotoMadeToFit: Story = {
  render: (args) =>
    drive(args, async (el) => {
      el.selectFile(await phoneFile('phone-selfie.heic'));
      await until(() => el.status === 'ready');
    }),
};

/** The call is out. */
export const Sending: Story = {
  tags: ['sandbox-state'],
  render: (args) =>
    drive(args, async (el) => {
      await ready(el);
      await fault('slow', { ms: 15_000 }); // the sandbox holds its answer back: time to look
      void el.start();
    }),
};

/** Transparent PNG: the before/after slider over a checkerboard, size and dimensions, download, copy, run again. */
export const Succeeded: Story = { render: (args) => drive(args, result) };

/** JPG on a solid background colour. */
export const ColourJpg: Story = { args: { format: 'jpg', bgColor: '#ffe4a8' }, render: (args) => drive(args, result) };

/** Cropped to the subject, preview size. */
export const CroppedPreview: Story = { args: { crop: true, size: 'preview' }, render: (args) => drive(args, result) };

/** Sandbox fault `create_error` (a 500): nothing was charged, try again. */
export const Failed: Story = {
  tags: ['sandbox-state'],
  render: (args) =>
    drive(args, async (el) => {
      await ready(el);
      await fault('create_error');
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

/** An address the sandbox may not fetch (only public hosts): the refusal, nothing charged. */
export const UrlRefused: Story = {
  render: (args) =>
    drive(args, async (el) => {
      el.selectUrl('http://127.0.0.1/private.png');
      await el.start();
    }),
};

/** German, by the closest [lang]. */
export const German: Story = { args: { lang: 'de' }, render: (args) => drive(args, result) };

/** Dark theme on a phone-width column. */
export const DarkPhone: Story = {
  args: { theme: 'dark', width: '390px' },
  render: (args) => html`<div style="background:#0d1117;color:#e6edf3;padding:16px">${drive(args, result)}</div>`,
};

/** In an edit form: required until there is a result, submitted as a file, cleared by reset. */
export const InAForm: Story = {
  render: (args) => html`<form @submit=${(e: SubmitEvent) => {
    e.preventDefault();
    const f = new FormData(e.target as HTMLFormElement).get('cutout') as File | null;
    (e.target as HTMLFormElement).querySelector('output')!.textContent = f ? `cutout = ${f.name}, ${f.size} bytes` : '';
  }}>
    ${(() => {
      const el = drive(args);
      el.name = 'cutout';
      el.required = true;
      return el;
    })()}
    <p><button>Save</button> <button type="reset">Reset</button> <output></output></p>
  </form>`,
};

/** Field mode (`appearance="field"`), as a CMS edit form shows it: Create opens the whole tool in a dialog. */
export const Field: Story = { render: (args, context) => asField(meta.render!(args, context)) };

/** Field mode with a result made and kept: its picture, what made it, Open / Replace / Remove. */
export const FieldWithResult: Story = {
  render: (args, context) => asField(Succeeded.render!(args, context)),
};
