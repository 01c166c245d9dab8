// The test server. It is NOT WordPress: it answers the few REST routes the block editor uses the
// way WordPress's REST API answers them (GET/POST /wp-json/wp/v2/posts/:id, POST and GET
// /wp-json/wp/v2/media, files at permanent /wp-content/uploads/YYYY/MM/ URLs), serves the built
// editor page at /wp-admin/post.php, the package's CDN build at /cdn/, and mounts the package's dev
// stack (the proxy at /mediakit, the sandbox of the media API at /sandbox).
//
//   node server.mjs [port]   (after `vite build`, from an install of @mediakit/elements)
import { createReadStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.wasm': 'application/wasm',
  '.glb': 'model/gltf-binary',
  '.mp4': 'video/mp4',
};
const MIME_EXT = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'video/mp4': 'mp4' };

/**
 * Starts the server. `dir`: the built editor (vite's dist); `installed`: the installed package
 * (its cdn/); `data`: where posts and uploads are written; `createDevStack` from
 * @mediakit/elements/dev. Resolves to `{ url, close, stats }` (`stats.uploads`: what the media
 * endpoint received; `stats.saves`: the post bodies saved).
 */
export async function startServer({ dir, installed, data, createDevStack, port = 0 }) {
  const stack = createDevStack({ sandbox: { speed: 600 }, resultsDir: false });
  const uploadsDir = join(data, 'uploads');
  const dbFile = join(data, 'db.json');
  mkdirSync(uploadsDir, { recursive: true });
  const db = existsSync(dbFile)
    ? JSON.parse(readFileSync(dbFile, 'utf8'))
    : {
        nextId: 2,
        posts: {
          1: {
            id: 1,
            title: 'A product page',
            content: '',
            modified: new Date().toISOString(),
          },
        },
        media: {},
      };
  const persist = () => writeFileSync(dbFile, JSON.stringify(db, null, '\t'));
  persist();
  const stats = { uploads: [], saves: [] };
  let origin = '';

  const json = (res, status, body, headers = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const restError = (res, status, code, message) => json(res, status, { code, message, data: { status } });
  const readBody = async (req) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    return Buffer.concat(chunks);
  };

  // WordPress's post shape (context=edit), with content.rendered as the_content would give for
  // static blocks: the markup without the block delimiters.
  const postJson = (p) => ({
    id: p.id,
    date: p.modified,
    modified: p.modified,
    slug: `post-${p.id}`,
    status: 'draft',
    type: 'post',
    link: `${origin}/?p=${p.id}`,
    title: { raw: p.title, rendered: p.title },
    content: {
      raw: p.content,
      rendered: p.content.replace(/<!-- \/?wp:[\s\S]*? -->\n?/g, ''),
      protected: false,
      block_version: p.content.includes('<!-- wp:') ? 1 : 0,
    },
  });
  // WordPress's attachment shape (the fields @wordpress/media-utils reads, and a few more).
  const mediaJson = (m) => ({
    id: m.id,
    date: m.date,
    slug: m.slug,
    type: 'attachment',
    link: `${origin}/?attachment_id=${m.id}`,
    title: { raw: m.slug, rendered: m.slug },
    caption: { raw: '', rendered: '' },
    alt_text: '',
    media_type: m.mime_type.startsWith('image/') ? 'image' : 'file',
    mime_type: m.mime_type,
    media_details: { filesize: m.bytes, file: m.file, sizes: {} },
    source_url: `${origin}/wp-content/uploads/${m.file}`,
  });

  async function rest(req, res, route) {
    let m;
    if ((m = route.match(/^\/wp\/v2\/posts\/(\d+)$/))) {
      const post = db.posts[m[1]];
      if (!post) return restError(res, 404, 'rest_post_invalid_id', 'Invalid post ID.');
      if (req.method === 'GET') return json(res, 200, postJson(post));
      if (req.method === 'POST' || req.method === 'PUT') {
        const body = JSON.parse((await readBody(req)).toString('utf8') || '{}');
        if (typeof body.content === 'string') post.content = body.content;
        if (typeof body.title === 'string') post.title = body.title;
        post.modified = new Date().toISOString();
        persist();
        stats.saves.push(post.content);
        return json(res, 200, postJson(post));
      }
    }
    if (route === '/wp/v2/media' && req.method === 'POST') {
      // multipart/form-data with `file`, as wp.apiFetch / media-utils send it.
      const form = await new Request('http://local/', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body: Readable.toWeb(req),
        duplex: 'half',
      })
        .formData()
        .catch(() => null);
      const file = form?.get('file');
      if (!file || typeof file === 'string') return restError(res, 400, 'rest_upload_no_data', 'No data supplied.');
      const bytes = Buffer.from(await file.arrayBuffer());
      const type = file.type || 'application/octet-stream';
      const ext = MIME_EXT[type];
      if (!ext)
        return restError(
          res,
          500,
          'rest_upload_sideload_error',
          'Sorry, you are not allowed to upload this file type.',
        );
      const now = new Date();
      const month = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
      const base =
        (file.name || `upload.${ext}`)
          .replace(/\.[^.]*$/, '')
          .toLowerCase()
          .replace(/[^a-z0-9_-]+/g, '-')
          .replace(/^-+|-+$/g, '') || 'upload';
      mkdirSync(join(uploadsDir, month), { recursive: true });
      // wp_unique_filename: name.png, name-1.png, ...
      let name = `${base}.${ext}`;
      for (let i = 1; existsSync(join(uploadsDir, month, name)); i++) name = `${base}-${i}.${ext}`;
      writeFileSync(join(uploadsDir, month, name), bytes);
      const media = {
        id: db.nextId++,
        date: now.toISOString(),
        slug: name.replace(/\.[^.]*$/, ''),
        file: `${month}/${name}`,
        mime_type: type,
        bytes: bytes.length,
      };
      db.media[media.id] = media;
      persist();
      stats.uploads.push({ id: media.id, file: media.file, type, bytes });
      const answer = mediaJson(media);
      return json(res, 201, answer, { location: `${origin}/wp-json/wp/v2/media/${media.id}` });
    }
    if ((m = route.match(/^\/wp\/v2\/media\/(\d+)$/)) && req.method === 'GET') {
      const media = db.media[m[1]];
      if (!media) return restError(res, 404, 'rest_post_invalid_id', 'Invalid post ID.');
      return json(res, 200, mediaJson(media));
    }
    return restError(res, 404, 'rest_no_route', 'No route was found matching the URL and request method.');
  }

  function sendFile(res, file, cache) {
    if (!existsSync(file) || !statSync(file).isFile()) return res.writeHead(404).end('not found');
    res.writeHead(200, {
      'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': statSync(file).size,
      ...(cache ? { 'cache-control': cache } : {}),
    });
    createReadStream(file).pipe(res);
  }
  const inside = (base, path) => {
    const file = resolve(base, '.' + path);
    return file.startsWith(resolve(base) + '/') ? file : null;
  };

  const server = createServer((req, res) => {
    stack.middleware(req, res, () => {
      const url = new URL(req.url ?? '/', 'http://local');
      const path = decodeURIComponent(url.pathname);
      // ?rest_route= is WordPress's other way to the same routes.
      const route = path.startsWith('/wp-json/') ? path.slice('/wp-json'.length) : url.searchParams.get('rest_route');
      if (route) {
        return rest(req, res, route.replace(/\/$/, '')).catch((err) => {
          if (!res.headersSent) restError(res, 500, 'internal_error', String(err?.message ?? err));
        });
      }
      if (path === '/wp-admin/post.php' || path === '/') return sendFile(res, join(dir, 'index.html'));
      if (path.startsWith('/wp-content/uploads/')) {
        const file = inside(uploadsDir, path.slice('/wp-content/uploads'.length));
        return file ? sendFile(res, file, 'public, max-age=31536000') : res.writeHead(403).end();
      }
      if (path.startsWith('/cdn/')) {
        const file = inside(join(installed, 'cdn'), path.slice('/cdn'.length));
        return file ? sendFile(res, file) : res.writeHead(403).end();
      }
      const file = inside(dir, path);
      return file ? sendFile(res, file) : res.writeHead(403).end();
    });
  });
  await new Promise((ok) => server.listen(port, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${server.address().port}`;
  return {
    url: origin,
    stats,
    stack,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections?.();
        server.close(() => done());
      }),
  };
}

// `node server.mjs [port]`: the built editor, by hand (the app's folder inside an install).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const here = dirname(fileURLToPath(import.meta.url));
  const require = createRequire(join(here, 'x.js'));
  const installed = dirname(require.resolve('@mediakit/elements/package.json'));
  const { createDevStack } = await import(pathToFileURL(join(installed, 'dist/dev/index.js')).href);
  const server = await startServer({
    dir: join(here, 'dist'),
    installed,
    data: join(here, '.data'),
    createDevStack,
    port: Number(process.argv[2] ?? 8787),
  });
  console.log(`${server.url}/wp-admin/post.php?post=1&action=edit  (not WordPress: see README.md)`);
}
