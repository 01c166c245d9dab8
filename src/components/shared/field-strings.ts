/**
 * Field mode's words (its actions, what its box says of the value), in English. They load with
 * the field's lazy chunk (registered by field.ts), so a page of full elements never pays for
 * them; the shipped languages have them in src/translations.
 */
export const fieldStrings = {
  fieldCreate: 'Create',
  fieldOpen: 'Open',
  fieldReplace: 'Replace',
  fieldRemove: 'Remove',
  fieldDone: 'Done',
  fieldEmpty: 'Nothing made yet.',
  fieldRunning: 'In progress. It goes on while you edit.',
  fieldNotSaved: 'Made, but not saved.',
  fieldFailed: 'The job did not finish. Open it to see why and start again, or remove it.',
  fieldUnknown:
    'This job cannot be followed here: it belongs to another user or is no longer known. Open it to start a new one, or remove it.',
  fieldExpired: 'The result expired before it was saved. Open it to make it again, or remove it.',
  fieldGone: 'The saved file is no longer available. Replace it, or remove it.',
};

export type FieldStrings = typeof fieldStrings;
