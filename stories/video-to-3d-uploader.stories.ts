import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import '../src/components/video-to-3d-uploader/define.js';
import type { VideoTo3dUploader } from '../src/components/video-to-3d-uploader/video-to-3d-uploader.js';
import { advance, asField, ENDPOINT, fault, POOR_ENDPOINT, sampleVideo, until } from './sandbox.js';
import { LANG_CONTROL } from './languages.js';

interface Args {
  endpoint: string;
  lang: string;
  theme: '' | 'light' | 'dark';
  notify: boolean;
  width: string;
}

/** Renders the element, then drives it through the playground into the story's phase. */
function drive(args: Args, steps?: (el: VideoTo3dUploader) => Promise<void>) {
  const el = document.createElement('video-to-3d-uploader');
  el.endpoint = args.endpoint;
  if (args.lang) el.lang = args.lang;
  if (args.theme) el.theme = args.theme;
  el.notify = args.notify;
  el.style.maxWidth = args.width;
  if (steps) void customElements.whenDefined('video-to-3d-uploader').then(() => steps(el));
  return el;
}

const meta: Meta<Args> = {
  title: 'Elements/video-to-3d-uploader',
  component: 'video-to-3d-uploader',
  args: { endpoint: ENDPOINT, lang: '', theme: '', notify: false, width: '720px' },
  argTypes: {
    theme: { control: 'inline-radio', options: ['', 'light', 'dark'] },
    lang: LANG_CONTROL,
    width: { control: 'inline-radio', options: ['720px', '390px', '100%'] },
  },
  render: (args) => drive(args),
};
export default meta;

type Story = StoryObj<Args>;

/** Nothing chosen: the drop zone, the limits, the cost, filming tips, and the user's recent scenes. */
export const Idle: Story = {};

/** A file that is not a video, refused before any byte is sent. */
export const Refused: Story = {
  render: (args) =>
    drive(args, async (el) => el.selectFile(new File(['not a video'], 'holiday.mp4', { type: 'video/mp4' }))),
};

/** The sample walkthrough checked locally: thumbnail, length, frame size, cost, confirm. */
export const Ready: Story = {
  render: (args) => drive(args, async (el) => el.selectFile(await sampleVideo())),
};

/** Uploaded and building: stage, progress, elapsed time, "you can close this page". */
export const Processing: Story = {
  tags: ['sandbox-state'],
  render: (args) =>
    drive(args, async (el) => {
      el.selectFile(await sampleVideo());
      await until(() => el.status === 'ready');
      await fault('slow', { ms: 120_000 }); // two more minutes: time to look
      await el.start();
      // Queued for the first tenth of the timeline: step the clock to the building stages.
      while (el.status === 'uploading' || el.status === 'resending' || el.status === 'queued') {
        await advance(10_000);
        await new Promise((r) => setTimeout(r, 500));
      }
      await advance(60_000); // on to the camera poses stage
    }),
};

/** The scene in the built-in <splat-viewer>, with downloads. */
export const Succeeded: Story = {
  tags: ['sandbox-state'],
  render: (args) =>
    drive(args, async (el) => {
      el.selectFile(await sampleVideo());
      await until(() => el.status === 'ready');
      await el.start();
      while (el.status !== 'succeeded' && el.status !== 'failed') {
        await advance(60_000);
        await new Promise((r) => setTimeout(r, 500));
      }
    }),
};

/** The job failed upstream (sandbox fault `job_fail`): the service's message and the refund. */
export const Failed: Story = {
  tags: ['sandbox-state'],
  render: (args) =>
    drive(args, async (el) => {
      el.selectFile(await sampleVideo());
      await until(() => el.status === 'ready');
      await fault('job_fail', { count: 1 });
      await el.start();
      while (el.status !== 'failed' && el.status !== 'succeeded') {
        await advance(60_000);
        await new Promise((r) => setTimeout(r, 500));
      }
    }),
};

/** The service is busy (sandbox fault `rate_limit`): a countdown, then it goes on by itself. */
export const RateLimited: Story = {
  tags: ['sandbox-state'],
  render: (args) =>
    drive(args, async (el) => {
      el.selectFile(await sampleVideo());
      await until(() => el.status === 'ready');
      await fault('rate_limit', { count: 1 });
      await el.start();
    }),
};

/** A session with 5 credits left (the playground's 5-credit endpoint, mediakit-poor): the cost line says so, confirm is off. */
export const NotEnoughCredits: Story = {
  args: { endpoint: POOR_ENDPOINT },
  render: (args) =>
    drive(args, async (el) => {
      el.topUpHref = '#top-up';
      el.selectFile(await sampleVideo());
    }),
};

/** German, by the closest [lang]. */
export const German: Story = {
  args: { lang: 'de' },
  render: (args) => drive(args, async (el) => el.selectFile(await sampleVideo())),
};

/** Dark theme on a phone-width column. */
export const DarkPhone: Story = {
  args: { theme: 'dark', width: '390px' },
  render: (args) =>
    html`<div style="background:#0d1117;color:#e6edf3;padding:16px">${drive(args, async (el) => el.selectFile(await sampleVideo()))}</div>`,
};

/** Theming: the public custom properties and a `::part()` rule, with the sample video chosen. */
export const Themed: Story = {
  render: (args) => html`<style>
      .themed video-to-3d-uploader { --mk-accent: #0f766e; --mk-radius: 4px; --mk-surface-2: #f0fdfa; --mk-border: #99f6e4; }
      .themed video-to-3d-uploader::part(confirm-button) { text-transform: uppercase; letter-spacing: 0.04em; }
    </style>
    <div class="themed">${drive(args, async (el) => el.selectFile(await sampleVideo()))}</div>`,
};

/** Field mode (`appearance="field"`), as a CMS edit form shows it: Create opens the whole tool in a dialog. */
export const Field: Story = { render: (args, context) => asField(meta.render!(args, context)) };

/** Field mode with a result made and kept: its picture, what made it, Open / Replace / Remove. */
export const FieldWithResult: Story = {
  tags: ['sandbox-state'],
  render: (args, context) => asField(Succeeded.render!(args, context)),
};
