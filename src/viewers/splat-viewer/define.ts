import { SplatViewer } from './splat-viewer.js';

SplatViewer.define('splat-viewer');
