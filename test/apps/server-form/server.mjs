// A plain server-rendered edit form, the shape of a Rails, Django or Drupal admin form: `node:http`,
// no framework, no client JavaScript of the site's own. The page loads one script, the package's
// CDN build, and holds <bg-tool name="cutout" appearance="field" value="…">. The form posts
// multipart/form-data; the element submits two entries, `cutout` (the value's JSON) and
// `cutout-file` (the cut-out image), and the server keeps the image in its own media folder, points
// the value's `asset` at it, stores the record and redirects (303) back to the form.
//
//   node server.mjs            (in a folder where @mediakit/elements, sharp, @gltf-transform/core
//                               and mediabunny are installed; PORT=3000 by default)
//
// Rules for the `cutout` field (README.md beside this file):
//   - absent:        the element posted nothing (JavaScript off, the script did not load): the
//                    stored value is kept;
//   - empty string:  cleared (an element with no value posts an empty entry, as an empty input does);
//   - JSON:          checked; with a `cutout-file`, the file is stored under its content hash in
//                    media/ and the value's asset becomes `{ url: /media/…, type, bytes, id }`.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const MAX_BODY = 30 * 1024 * 1024; // the element's images are at most a few MB
const MAX_JSON = 16 * 1024;
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
};
// Everything the site itself serves is from this origin; only the package's script runs.
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; " +
  "connect-src 'self' blob:; worker-src 'self' blob:; font-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const CSS = `body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input[name=title]{font:inherit;width:100%;box-sizing:border-box;padding:.4rem .5rem}
.notice{background:#e7f6ec;border:1px solid #9bd3ad;padding:.5rem .75rem;border-radius:6px}
.errors{background:#fdecec;border:1px solid #e5a3a3;padding:.5rem .75rem;border-radius:6px}
.help{color:#5b6474;font-size:.875rem;margin:.25rem 0 0}
button{font:inherit;margin-top:1.5rem;padding:.5rem 1.25rem}
`;

const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** The image's kind from its first bytes (never from the name or the type the browser sent). */
function sniff(bytes) {
  if (bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return { type: 'image/png', ext: '.png' };
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return { type: 'image/jpeg', ext: '.jpg' };
  return null;
}

/** The request body as a web stream that fails past `limit` bytes. */
function limited(req, limit) {
  let seen = 0;
  return Readable.toWeb(
    Readable.from(
      (async function* () {
        for await (const chunk of req) {
          seen += chunk.length;
          if (seen > limit) throw Object.assign(new Error('body too large'), { status: 413 });
          yield chunk;
        }
      })(),
    ),
  );
}

/**
 * The site: routes, the record store (a JSON file, like a one-table database) and the media folder.
 * `stack` is the package's dev stack (proxy + sandbox) or anything with `middleware(req, res, next)`.
 */
export function createSite({ stack, cdnDir, dataDir }) {
  const mediaDir = join(dataDir, 'media');
  const dbFile = join(dataDir, 'db.json');
  mkdirSync(mediaDir, { recursive: true });
  const db = existsSync(dbFile) ? JSON.parse(readFileSync(dbFile, 'utf8')) : { records: {} };
  const save = () => {
    writeFileSync(dbFile + '.tmp', JSON.stringify(db, null, 2));
    renameSync(dbFile + '.tmp', dbFile);
  };
  /** What each POST brought (for tests and the console): fields present, the value, the file's hash. */
  const posts = [];

  const record = (id) => db.records[id] ?? { id, title: '', cutout: '', updated: null };

  function page(res, id, { notice = '', errors = [], csrf, status = 200, title } = {}) {
    const r = record(id);
    const saved = r.cutout ? JSON.parse(r.cutout).asset : null;
    const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Edit product ${escapeHtml(id)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/site.css">
<script type="module" src="/cdn/mediakit-elements.js"></script>
</head>
<body>
<h1>Edit product ${escapeHtml(id)}</h1>
${notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>` : ''}${
      errors.length
        ? `<div class="errors" role="alert"><p>The product was not saved:</p><ul>${errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('')}</ul></div>`
        : ''
    }
<form method="post" action="/edit/${encodeURIComponent(id)}" enctype="multipart/form-data">
<input type="hidden" name="csrf_token" value="${escapeHtml(csrf)}">
<label for="title">Title</label>
<input id="title" name="title" value="${escapeHtml(title ?? r.title)}" maxlength="200">
<label id="cutout-label">Cut-out picture</label>
<bg-tool name="cutout" appearance="field" aria-labelledby="cutout-label" value="${escapeHtml(r.cutout)}"></bg-tool>
${saved?.url ? `<noscript><p><img src="${escapeHtml(saved.url)}" alt="The saved cut-out" width="160"></p></noscript>` : ''}
<p class="help">${saved?.url ? `Saved: ${escapeHtml(saved.url)}` : 'No picture yet.'}</p>
<button>Save</button>
</form>
</body>
</html>
`;
    res.writeHead(status, {
      'content-type': TYPES['.html'],
      'content-security-policy': CSP,
      'cache-control': 'no-store',
    });
    res.end(html);
  }

  /** Double-submit CSRF token (a cookie and the form's hidden field), as the admin frameworks do. */
  function csrfToken(req, res) {
    const have = /(?:^|;\s*)sf_csrf=([A-Za-z0-9_-]{32,})/.exec(req.headers.cookie ?? '')?.[1];
    if (have) return have;
    const token = randomBytes(24).toString('base64url');
    res.appendHeader('set-cookie', `sf_csrf=${token}; Path=/; HttpOnly; SameSite=Lax`);
    return token;
  }

  /** The posted `cutout` value checked and, with its file, moved into this site's media folder. */
  function takeCutout(json, file) {
    if (json.length > MAX_JSON) throw new Error('The cut-out value is too long.');
    let value;
    try {
      value = JSON.parse(json);
    } catch {
      throw new Error('The cut-out value is not JSON.');
    }
    if (!value || typeof value !== 'object' || value.v !== 1 || value.kind !== 'background-removal')
      throw new Error('The cut-out value is not a background removal (shape 1).');
    if (!file) {
      // No file (the image was still loading when the form was sent, or a value kept elsewhere):
      // the value must name an image that lasts, here or in the proxy's result store.
      const url = value.asset?.url;
      if (typeof url !== 'string' || !/^\/(media\/[0-9a-f]{64}\.(png|jpg)|mediakit\/results\/[^?#]+)$/.test(url))
        throw new Error('The cut-out names no image this site can keep.');
      if (url.startsWith('/media/') && !existsSync(join(mediaDir, url.slice('/media/'.length))))
        throw new Error('The cut-out names an image this site does not have.');
      return { value, stored: null };
    }
    const kind = sniff(file.bytes);
    if (!kind) throw new Error('The cut-out file is not a PNG or JPEG image.');
    if (value.asset && value.asset.bytes !== file.bytes.length)
      throw new Error(
        `The cut-out file (${file.bytes.length} bytes) is not the value's image (${value.asset.bytes} bytes).`,
      );
    const hash = createHash('sha256').update(file.bytes).digest('hex');
    const name = hash + kind.ext;
    const path = join(mediaDir, name);
    const fresh = !existsSync(path);
    if (fresh) {
      writeFileSync(path + '.tmp', file.bytes);
      renameSync(path + '.tmp', path);
    }
    // This site's copy is what lasts (backups, deleting with the record, its own CDN): the value
    // names it; the proxy's copy, if any, is no longer referenced.
    value.asset = { url: `/media/${name}`, type: kind.type, bytes: file.bytes.length, id: hash };
    return { value, stored: { name, hash, bytes: file.bytes.length, fresh } };
  }

  async function post(req, res, id) {
    const type = req.headers['content-type'] ?? '';
    if (!type.startsWith('multipart/form-data')) return res.writeHead(415).end('multipart/form-data only');
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY) return res.writeHead(413).end('too large');
    let form;
    try {
      form = await new Request(`http://site${req.url}`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: limited(req, MAX_BODY),
        duplex: 'half',
      }).formData();
    } catch (err) {
      return res.writeHead(err?.status ?? err?.cause?.status ?? 400).end('the form could not be read');
    }
    const csrf = /(?:^|;\s*)sf_csrf=([A-Za-z0-9_-]{32,})/.exec(req.headers.cookie ?? '')?.[1] ?? '';
    const sent = String(form.get('csrf_token') ?? '');
    if (!csrf || sent.length !== csrf.length || !timingSafeEqual(Buffer.from(sent), Buffer.from(csrf)))
      return res.writeHead(403).end('the form expired: reload the page');

    const cutoutEntry = form.get('cutout');
    const fileEntry = form.get('cutout-file');
    const file =
      fileEntry && typeof fileEntry === 'object'
        ? { name: fileEntry.name, type: fileEntry.type, bytes: Buffer.from(await fileEntry.arrayBuffer()) }
        : null;
    const log = {
      id,
      at: new Date().toISOString(),
      fields: [...form.keys()],
      title: form.get('title'),
      cutout: typeof cutoutEntry === 'string' ? cutoutEntry : null,
      file: file && {
        name: file.name,
        type: file.type,
        bytes: file.bytes.length,
        sha256: createHash('sha256').update(file.bytes).digest('hex'),
      },
    };
    posts.push(log);

    const next = { ...record(id) };
    const errors = [];
    const title = String(form.get('title') ?? '').trim();
    if (title.length > 200) errors.push('The title is longer than 200 characters.');
    else next.title = title;
    if (cutoutEntry === null) {
      // The element posted nothing: keep what is stored (see the README: JavaScript off, or the
      // element has no value to post).
      log.outcome = 'kept (no cutout field)';
    } else if (cutoutEntry === '') {
      next.cutout = '';
      log.outcome = 'cleared';
    } else {
      try {
        const { value, stored } = takeCutout(String(cutoutEntry), file);
        next.cutout = JSON.stringify(value);
        log.stored = stored;
        log.outcome = next.cutout === record(id).cutout ? 'unchanged' : 'replaced';
      } catch (err) {
        errors.push(err.message);
      }
    }
    if (errors.length) {
      log.outcome = 'refused';
      log.errors = errors;
      // As a Rails/Django form does: the form again with the errors, nothing stored.
      return page(res, id, { errors, csrf, status: 422, title: String(form.get('title') ?? '') });
    }
    next.updated = new Date().toISOString();
    db.records[id] = next;
    save();
    res.writeHead(303, { location: `/edit/${encodeURIComponent(id)}?saved=1` }).end();
  }

  function file(res, base, rel, headers = {}) {
    const path = resolve(base, '.' + rel);
    if (!path.startsWith(resolve(base) + '/')) return res.writeHead(403).end();
    if (!existsSync(path) || !statSync(path).isFile()) return res.writeHead(404).end('not found');
    res.writeHead(200, {
      'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      'content-length': statSync(path).size,
      ...headers,
    });
    createReadStream(path).pipe(res);
  }

  async function route(req, res) {
    const url = new URL(req.url ?? '/', 'http://site');
    const path = decodeURIComponent(url.pathname);
    const edit = /^\/edit\/([A-Za-z0-9_-]{1,40})$/.exec(path);
    if (edit && req.method === 'GET') {
      const csrf = csrfToken(req, res);
      return page(res, edit[1], { csrf, notice: url.searchParams.has('saved') ? 'Saved.' : '' });
    }
    if (edit && req.method === 'POST') return post(req, res, edit[1]);
    if (path === '/') return res.writeHead(302, { location: '/edit/1' }).end();
    if (path === '/static/site.css') return res.writeHead(200, { 'content-type': TYPES['.css'] }).end(CSS);
    if (path.startsWith('/cdn/')) return file(res, cdnDir, path.slice('/cdn'.length));
    if (path.startsWith('/media/'))
      // Named by their content hash: never changes, cached for good.
      return file(res, mediaDir, path.slice('/media'.length), {
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
      });
    res.writeHead(404).end('not found');
  }

  const server = createServer((req, res) => {
    stack.middleware(req, res, (err) => {
      if (err) return res.writeHead(500).end(String(err));
      route(req, res).catch((e) => {
        console.error(e);
        if (!res.headersSent) res.writeHead(500);
        res.end('server error');
      });
    });
  });

  return {
    server,
    posts,
    mediaDir,
    record,
    listen(port = 0, host = '127.0.0.1') {
      return new Promise((ok) => server.listen(port, host, () => ok(`http://${host}:${server.address().port}`)));
    },
    close() {
      server.closeAllConnections?.();
      return new Promise((ok) => server.close(() => ok()));
    },
  };
}

// `node server.mjs`: the site with the package's dev stack, data in ./data.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { createRequire } = await import('node:module');
  const { dirname } = await import('node:path');
  const require = createRequire(import.meta.url);
  const { createDevStack } = await import('@mediakit/elements/dev');
  const cdnDir = dirname(require.resolve('@mediakit/elements/cdn/mediakit-elements.js'));
  const site = createSite({
    stack: createDevStack(),
    cdnDir,
    dataDir: join(dirname(fileURLToPath(import.meta.url)), 'data'),
  });
  const url = await site.listen(Number(process.env.PORT ?? 3000));
  console.log(`the edit form: ${url}/edit/1`);
}
