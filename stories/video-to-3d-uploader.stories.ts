import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import '../src/components/video-to-3d-uploader/define.js';
import type { VideoTo3dUploader } from '../src/components/video-to-3d-uploader/video-to-3d-uploader.js';
import { advance, asField, ENDPOINT, fault, phoneFile, POOR_ENDPOINT, sampleVideo, until } from './sandbox.js';
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

/**
 * A 4K clip as a phone records it (stories/assets/phone-4k.mp4), made to fit before anything is
 * spent: what will be done (scaled to 1920x1080, the sound dropped, H.264 MP4 made on this device)
 * and a confirm button that names the work, "Convert and upload (20 credits)".
 */
export const MadeToFit: Story = {
  render: (args) => drive(args, async (el) => el.selectFile(await phoneFile('phone-4k.mp4'))),
};

/**
 * A clip over 3 minutes (3:20, stories/assets/phone-long.mp4): the part to send, on a filmstrip of
 * its frames, the first 3:00 by default. Two sliders (arrow keys a second, Page Up and Down ten),
 * each with its time read out; `trim` sets the same range from code.
 */
export const TrimRange: Story = {
  render: (args) => drive(args, async (el) => el.selectFile(await phoneFile('phone-long.mp4'))),
};

/**
 * The 4K clip being converted on this device (the `converting` state): frames done, time left and
 * a cancel that costs nothing. When it is done the upload starts by itself (the story goes on to it).
 */
export const Converting: Story = {
  render: (args) =>
    drive(args, async (el) => {
      el.selectFile(await phoneFile('phone-4k.mp4'));
      await until(() => el.status === 'ready');
      void el.start();
    }),
};

/**
 * An iPhone's "High Efficiency" clip (HEVC in a MOV, 720p, stories/assets/phone-hevc.mov): within
 * the limits it is sent as it is. Where the browser cannot decode HEVC (Chromium on Linux and
 * Windows without the codec) the facts say the preview and the checks were skipped; a browser that
 * can shows its first frame instead.
 */
export const HevcNoPreview: Story = {
  render: (args) => drive(args, async (el) => el.selectFile(await phoneFile('phone-hevc.mov'))),
};

/**
 * A 4K HEVC clip (stories/assets/phone-hevc-4k.mov) in a browser that cannot decode HEVC: it cannot
 * be made to fit here, so it is refused before anything is sent, with advice for the device
 * (record at 1080p; on an iPhone, Settings > Camera > Formats > Most Compatible). A browser that
 * decodes HEVC makes it fit instead.
 */
export const RefusedWithDeviceAdvice: Story = {
  render: (args) => drive(args, async (el) => el.selectFile(await phoneFile('phone-hevc-4k.mov'))),
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
      .themed video-to-3d-uploader::part(primary-button) { text-transform: uppercase; letter-spacing: 0.04em; }
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
