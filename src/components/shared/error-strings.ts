/**
 * What the error panel says for each reason: what happened (title) and what to do (hint), in
 * English; German loads on first use. Loaded with the error panel, not with the page.
 */
import type { ErrorParams } from '../../api/index.js';
import type { Formatter } from '../../internal/format.js';

export const errorStrings = {
  errEmptyTitle: 'This file is empty',
  errEmptyHint: 'Choose the file again; it may not have finished copying.',
  errTooLargeTitle: (p: ErrorParams, f: Formatter) => `The file is too large (${f.bytes(Number(p['bytes'] ?? 0))})`,
  errTooLargeHint: (p: ErrorParams, f: Formatter) =>
    `Files may be at most ${f.bytes(Number(p['max']))}. Trim it or export it at a lower quality.`,
  errNotVideoTitle: 'This is not an MP4 or MOV video',
  errNotVideoHint: 'Files are judged by their contents, not their name. Export the walkthrough as MP4.',
  errNotImageTitle: 'This is not a JPG, PNG or WebP image',
  errNotImageHint: 'Files are judged by their contents, not their name. Save it as JPG, PNG or WebP.',
  errUnreadableTitle: "The video's length and size could not be read",
  errUnreadableHint: 'The file may be damaged or still being written. Export it again as MP4.',
  errUndecodableTitle: 'The image cannot be opened',
  errUndecodableHint: 'It may be damaged. Save it again and choose the new file.',
  errTooLongTitle: (p: ErrorParams, f: Formatter) => `The video is ${f.clock(Number(p['seconds'] ?? 0))} long`,
  errTooLongHint: (p: ErrorParams, f: Formatter) =>
    `Videos may be at most ${f.unit(Math.round(Number(p['max']) / 60), 'minute')}. Trim it to one continuous take.`,
  errResolutionTitle: (p: ErrorParams, f: Formatter) =>
    `The video is ${f.number(Number(p['width'] ?? 0))}×${f.number(Number(p['height'] ?? 0))}`,
  errResolutionHint: (p: ErrorParams) =>
    `Videos may be at most ${p['maxShort']}p (${p['maxLong']}×${p['maxShort']}, either orientation). Export it at ${p['maxShort']}p or lower.`,
  errImageCountTitle: (p: ErrorParams) => `${p['count']} photos were given`,
  errImageCountHint: (p: ErrorParams) => `Use ${p['min']} to ${p['max']} photos of one object.`,
  errPromptTitle: 'The description is too short or too long',
  errPromptHint: (p: ErrorParams) => `Describe the object in ${p['min']} to ${p['max']} characters.`,
  errInvalidTitle: 'The request was refused',
  errInvalidHint: 'Check the settings and try again.',
  errCreditsTitle: 'Not enough credits',
  errCreditsHint: 'This session has too few credits left for this. Nothing was charged.',
  errRateTitle: 'Too many requests right now',
  errRateHint: (p: ErrorParams, f: Formatter) =>
    `Wait ${f.unit(Number(p['seconds'] ?? 10), 'second')} and try again. Nothing was charged.`,
  errNetworkTitle: 'The connection failed',
  errNetworkHint: 'Check the network and try again. Trying again never charges twice.',
  errUnauthorizedTitle: 'Your session was not accepted',
  errUnauthorizedHint: 'Reload the page or sign in again.',
  errForbiddenTitle: 'This is not allowed for your session',
  errForbiddenHint: 'Ask the site owner if you think it should be.',
  errNotFoundTitle: 'This job is no longer known',
  errNotFoundHint: 'Start a new one.',
  errSavedGoneTitle: "This saved result's file is no longer available",
  errSavedGoneHint: 'What the saved value records is still shown. Start over to make a new one.',
  errExpiredTitle: 'The result was deleted',
  errExpiredHint: 'Results are kept for a limited time. Start a new job.',
  errTimeoutTitle: 'The upload stalled',
  errTimeoutHint: 'The connection stopped sending data. Try again on a steadier network.',
  errConflictTitle: 'A different request was already sent',
  errConflictHint: 'Start over and send it again.',
  errProviderTitle: 'The service could not do this',
  errProviderHint: 'Nothing was charged. Try again in a moment.',
  errUnavailableTitle: 'The service is not reachable right now',
  errUnavailableHint: 'Try again in a moment. Trying again never charges twice.',
  errUnknownTitle: 'Something went wrong',
  errUnknownHint: 'Try again.',
};

export type ErrorStrings = typeof errorStrings;
