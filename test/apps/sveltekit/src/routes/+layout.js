// Server rendering stays on (the default); every page is prerendered to HTML at build time.
export const prerender = true;
