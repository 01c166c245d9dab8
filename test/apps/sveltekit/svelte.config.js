import adapter from '@sveltejs/adapter-static';

// Server rendering on, every page prerendered at build time: the page, and the element module it
// imports at the top level, are rendered in Node; the test serves build/ behind the dev stack and
// the page hydrates in the browser. SvelteKit 2, not 3: Kit 3 needs Node >= 22.17 (its prerender
// calls Promise.withResolvers) and takes this config in sveltekit({...}) instead of this file.
export default { kit: { adapter: adapter() } };
