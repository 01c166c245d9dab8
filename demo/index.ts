// `npm start`'s front page: the showcase (demo/showcase.ts) on the dev server's proxy at /mediakit,
// with the developer tools on the Node sandbox's control plane at /sandbox.
import { nodeSandboxTools } from './dev-tools.js';
import { mountShowcase } from './showcase.js';

// `?dir=rtl` opens the page right to left (the header's RTL button does the same).
if (new URLSearchParams(location.search).get('dir') === 'rtl') document.documentElement.dir = 'rtl';
mountShowcase(document.body, { endpoint: '/mediakit', devTools: nodeSandboxTools('/sandbox') });
