// Security headers for everything, a strict CSP for the client pages, and no caching of any API answer.
import helmet from '@fastify/helmet';
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

export async function registerSecurityHeaders(app: FastifyInstance, clientDir?: string): Promise<void> {
  const clientHashes = clientDir ? clientStyleHashes(clientDir) : () => [];
  const directives = {
    ...CONTENT_SECURITY_POLICY,
    styleSrc: [...CONTENT_SECURITY_POLICY.styleSrc, ...NOTICE_STYLE_HASHES, () => clientHashes().join(' ')],
  };
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Same as frame-ancestors 'none', for browsers that predate CSP level 2.
    frameguard: { action: 'deny' },
    // The app is served over plain HTTP on a LAN as often as behind TLS; HSTS belongs to the TLS terminator.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
