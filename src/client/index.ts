export * from './media-client.js';
export * from './credit-ledger.js';
export { ValidationError, validateVideo, validateImage, type CheckedVideo, type CheckedImage } from './validate.js';
export { readMp4Metadata, type VideoMetadata } from './mp4.js';
export type { SessionInfo } from './session.js';
