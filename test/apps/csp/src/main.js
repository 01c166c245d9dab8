// Every tag, as define.js registers them.
import '@mediakit/elements/define.js';
