import { HeadshotStudio } from './headshot-studio.js';

HeadshotStudio.define('headshot-studio');
