export * from './credits-changed.js';
export * from './upload-progress.js';
export * from './job-events.js';
export * from './viewer-load.js';
export * from './viewer-progress.js';
export * from './viewer-error.js';
export * from './file-select.js';
