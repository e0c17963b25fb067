// Serving the client: the built PWA from dist/, hashed assets cached for a year, the
// shell files (index.html, sw.js, the manifest) always revalidated so an update reaches users; client-side routes
// fall back to index.html. Compressed bytes are the .br/.gz files the build wrote beside each file
// (tools/precompress.ts): this process runs the engine and compresses no response itself, API responses included.
import { existsSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientFallback } from '../plugins/errors';
import { NOTICE_STYLE } from '../plugins/inline-styles';

/** Vite names emitted assets name-<hash>.ext under assets/; only those may be cached forever. */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/i;

/** Paths that only ever name build files: never client routes. */
const MISSING_FILE = /^\/(assets|icons)\//;

/** The suffixes of the build's stored compressed variants: file.js.br is file.js, sent with content-encoding br. */
const ENCODED_VARIANT = /\.(br|gz)$/;

/** The file a served path stands for: the uncompressed name of a stored .br/.gz variant. */
export function logicalPath(path: string): string {
  return path.replace(ENCODED_VARIANT, '');
}

export function cacheControlFor(path: string): string {
  if (HASHED_ASSET.test(logicalPath(path))) return 'public, max-age=31536000, immutable';
  return 'no-cache';
}

/** Shown while `vite build` runs on first start; it reloads itself (meta refresh: the CSP allows no inline script). */
export const BUILDING_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="5"><title>Starting…</title>${NOTICE_STYLE}</head>
<body>
<h1>The app is being built</h1><p>This takes a minute on the first start. This page reloads by itself.</p>
</body></html>`;

/** Where the background build stands; the process (run.ts) updates it, the fallback page reads it. */
export interface ClientBuildStatus {
  state: 'building' | 'failed' | 'ready';
}

export const BUILD_FAILED_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Build failed</title>${NOTICE_STYLE}</head>
<body>
<h1>The app could not be built</h1><p>The server log says why. The API is running; fix the build and restart.</p>
</body></html>`;

export async function registerClient(
  app: FastifyInstance,
  dir: string,
  status: ClientBuildStatus = { state: 'ready' },
): Promise<ClientFallback> {
  // The build may not have run yet; the directory must exist for the static plugin, files may come later.
  mkdirSync(dir, { recursive: true });
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    // Files are looked up per request, so a build that finishes after start is served without a restart.
    wildcard: true,
    index: false,
    cacheControl: false,
    dotfiles: 'ignore',
    // file.br / file.gz beside a file are sent for it when the request accepts them (brotli first), with the
    // file's content type, content-encoding and Vary: Accept-Encoding; otherwise the file itself.
    preCompressed: true,
    setHeaders: (reply, path) => {
      // `path` is the file actually sent, which may be a .br/.gz variant: the rules are those of the file it encodes.
      (reply as unknown as FastifyReply).header('cache-control', cacheControlFor(path));
      if (basename(logicalPath(path)) === 'sw.js')
        (reply as unknown as FastifyReply).header('service-worker-allowed', '/');
    },
  });

  const fallback = async (request: FastifyRequest, reply: FastifyReply) => {
    // A build file that does not exist (an old hashed chunk, a typo) is a 404, never the app shell: HTML served as
    // JavaScript breaks the page, and the service worker must not cache it under the asset's name.
    if (MISSING_FILE.test(request.url.split('?')[0] ?? '')) {
      return reply.code(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not found');
    }
    if (!existsSync(join(dir, 'index.html'))) {
      if (status.state === 'failed') {
        return reply
          .code(503)
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(BUILD_FAILED_PAGE);
      }
      return reply
        .code(503)
        .header('retry-after', '5')
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(BUILDING_PAGE);
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  };
  // The static plugin refuses directory requests; the root is the app shell like every client route.
  app.get('/', { schema: { hide: true } }, fallback);
  return fallback;
}
