import { ModelGenerator } from './model-generator.js';

ModelGenerator.define('model-generator');
