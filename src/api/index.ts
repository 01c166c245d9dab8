export * from './types.js';
export * from './limits.js';
export * from './costs.js';
export * from './errors.js';
export * from './capabilities.js';
export * from './headers.js';
export * from './sniff.js';
export * from './bytes.js';
