import { VideoTo3dUploader } from './video-to-3d-uploader.js';

VideoTo3dUploader.define('video-to-3d-uploader');
