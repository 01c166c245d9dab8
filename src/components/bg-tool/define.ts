import { BgTool } from './bg-tool.js';

BgTool.define('bg-tool');
