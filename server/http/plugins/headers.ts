// Security headers for everything, a strict CSP for the client pages, and no caching of any API answer.
//
// The header set is what helmet's defaults give with the options below (tests/server/core/security-headers.test.ts
// compares it with @fastify/helmet's answer), but computed once: @fastify/helmet builds helmet's middleware and
// re-parses the CSP directives on every request, a measurable share of a cheap API read. Here one synchronous hook
// writes precomputed name/value pairs; only the client's inline-style hashes can change (the client may be built after
// the server started), and they are looked up again only for requests that can return a page, never for /api.
import type { FastifyInstance } from 'fastify';
import { clientStyleHashes, inlineStyleHashes, NOTICE_STYLE } from './inline-styles';

export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // No 'unsafe-inline': the server's own inline <style> blocks are added by hash (registerSecurityHeaders). React's
  // style props set properties through the CSSOM, which CSP does not govern; no style attribute is ever parsed.
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  // The socket is on the app's own origin; 'self' covers ws:/wss: to the same host (CSP level 3).
  connectSrc: ["'self'"],
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
};

/** The hashes of the notice pages' style, constant. */
const NOTICE_STYLE_HASHES = inlineStyleHashes(NOTICE_STYLE);

/**
 * Helmet 8's defaults as this app configures them: its CSP replaced by ours, Referrer-Policy
 * strict-origin-when-cross-origin, X-Frame-Options DENY (frame-ancestors 'none' for browsers before CSP level 2), no
 * HSTS (the app is served over plain HTTP on a LAN as often as behind TLS; HSTS belongs to the TLS terminator), no
 * Cross-Origin-Embedder-Policy.
 */
export const STATIC_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/** camelCase directive names as CSP spells them (helmet's conversion): styleSrc → style-src. */
const dashed = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The Content-Security-Policy value for the given extra style hashes (the client's, when it is built). */
export function contentSecurityPolicy(clientHashes: readonly string[]): string {
  const directives: Record<string, readonly string[]> = {
    ...CONTENT_SECURITY_POLICY,
    styleSrc: [...CONTENT_SECURITY_POLICY.styleSrc, ...NOTICE_STYLE_HASHES, ...clientHashes],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${dashed(name)} ${values.join(' ')}`)
    .join(';');
}

export async function registerSecurityHeaders(app: FastifyInstance, clientDir?: string): Promise<void> {
  const clientHashes = clientDir ? clientStyleHashes(clientDir) : () => [];
  // clientStyleHashes answers the same array until index.html changes, so identity tells when to rebuild the CSP.
  let hashes = clientHashes();
  let headers = Object.entries({
    ...STATIC_SECURITY_HEADERS,
    'content-security-policy': contentSecurityPolicy(hashes),
  });
  const current = () => {
    const now = clientHashes();
    if (now !== hashes) {
      hashes = now;
      headers = Object.entries({
        ...STATIC_SECURITY_HEADERS,
        'content-security-policy': contentSecurityPolicy(hashes),
      });
    }
    return headers;
  };
  // On the raw response (as helmet did), so error answers, 404s and hijacked replies carry them too.
  app.addHook('onRequest', (request, reply, done) => {
    const api = request.url.startsWith('/api');
    for (const [name, value] of api ? headers : current()) reply.raw.setHeader(name, value);
    if (api) reply.raw.setHeader('cache-control', 'no-store');
    done();
  });
}
