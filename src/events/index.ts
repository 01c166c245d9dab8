export * from './credits-changed.js';
export * from './upload-progress.js';
export * from './job-events.js';
