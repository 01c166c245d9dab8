// The CSS inside the package's css`` literals, made smaller when dist/ is built: comments dropped,
// runs of whitespace made one space, none beside `{ } ; >` or after `:`, one after a comma. Nothing a browser
// parses differently (test/browser/css-minify.test.ts compares the parsed rules of every style
// sheet, before and after). A site's bundler minifies our JavaScript but never the CSS inside a
// template literal, so this is the only place it can happen. Pure string code: the build imports
// it, and so does the browser test.

/** One style sheet's text, smaller. */
export function minifyCss(text) {
  return (
    text
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\s+/g, ' ')
      .replace(/\s*([{};>])\s*/g, '$1')
      // One space after a comma: a value with var() keeps its text as written, spaces included.
      .replace(/\s*,\s*/g, ', ')
      .replace(/:\s+/g, ':')
      .replace(/;}/g, '}')
      .trim()
  );
}

/** A module's source with each css`` literal minified; `${…}` interpolations are kept as written. */
export function minifyCssLiterals(source) {
  return source.replace(/\bcss\s*`([^`]*)`/g, (_, body) => {
    const parts = body.split(/(\$\{[^}]*\})/);
    return 'css`' + parts.map((part, i) => (i % 2 ? part : minifyCss(part))).join('') + '`';
  });
}
