export * from './media-client.js';
export * from './credit-ledger.js';
export { ValidationError } from './validate.js';
export { validateVideo, type CheckedVideo } from './validate-video.js';
export { validateImage, type CheckedImage } from './validate-input.js';
export { readMp4Metadata, type VideoMetadata } from './mp4.js';
export type { SessionInfo } from './session.js';
export { clearStoredData } from './stored-data.js';
