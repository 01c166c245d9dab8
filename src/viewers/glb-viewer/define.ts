import { GlbViewer } from './glb-viewer.js';

GlbViewer.define('glb-viewer');
