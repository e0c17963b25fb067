// Compression of the API's JSON answers. A phone on a slow link pays for every byte of a history page or the snapshot
// (95 KB and 20 KB as JSON, 8 KB and 2.5 KB compressed), while an answer of a few hundred bytes saves nothing worth the
// CPU and a header. So: answers under /api of at least COMPRESS_MIN_BYTES, when the client accepts brotli (preferred,
// at a fast quality) or gzip; the work runs on libuv's threads (zlib's asynchronous calls), so the event loop that runs
// the engine only hands the buffer over and takes it back. Streams (the CSV export) and the client's files (served
// precompressed from the build) are left as they are; Socket.IO does not go through Fastify's hooks.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Below this, an answer goes plain: the saving is a few hundred bytes at most, less than a TCP segment. */
export const COMPRESS_MIN_BYTES = 1024;
/**
 * Brotli quality 4: on the API's JSON it compresses a history page within a few per cent of quality 11 at a small
 * fraction of the CPU (bench/compression.ts prints the levels side by side).
 */
export const BROTLI_QUALITY = 4;
/** gzip level 5, for clients without brotli: near level 9's size at about half its CPU. */
export const GZIP_LEVEL = 5;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type Encoding = 'br' | 'gzip';

/**
 * The encoding to use for an Accept-Encoding header: brotli when accepted, else gzip, else none. `q=0` refuses a
 * coding; `*` accepts any not named.
 */
export function chooseEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const accepts = (coding: Encoding) => (q.get(coding) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

export function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipAsync(body, { level: GZIP_LEVEL });
}

function isCompressible(reply: FastifyReply): boolean {
  if (reply.getHeader('content-encoding')) return false;
  const type = String(reply.getHeader('content-type') ?? '');
  return type.startsWith('application/json');
}

export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/api/') || request.method === 'HEAD') return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    // Every API answer may differ by Accept-Encoding, small ones too: a cache must not serve one client's coding to
    // another (the answers are no-store, but a proxy may still look).
    reply.header('vary', 'accept-encoding');
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (body.length < COMPRESS_MIN_BYTES || !isCompressible(reply)) return payload;
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const compressed = await compress(body, encoding);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return compressed;
  });
}
