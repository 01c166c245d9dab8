export * from './job-store.js';
export * from './job-poller.js';
export * from './job-controller.js';
