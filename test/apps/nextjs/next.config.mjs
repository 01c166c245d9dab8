// A static export: `next build` renders the App Router page on the server (in Node) to HTML, the
// test serves out/ behind the dev stack, and the page hydrates in the browser. No ssr: false.
export default { output: 'export' };
