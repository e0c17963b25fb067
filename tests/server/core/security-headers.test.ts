// The security headers are computed once instead of by @fastify/helmet on every request; they must stay exactly what
// helmet gave with the app's options, on API answers, errors and pages, and follow the client's inline-style hashes
// when the client is built after the server started.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, registerSecurityHeaders } from '../../../server/http/plugins/headers';
import { inlineStyleHashes, NOTICE_STYLE } from '../../../server/http/plugins/inline-styles';

/** The app's former configuration of @fastify/helmet, the reference the precomputed headers must equal. */
async function withHelmet(extraStyleHashes: () => string[]): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        ...CONTENT_SECURITY_POLICY,
        styleSrc: [
          ...CONTENT_SECURITY_POLICY.styleSrc,
          ...inlineStyleHashes(NOTICE_STYLE),
          () => extraStyleHashes().join(' '),
        ],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  });
  return app;
}

/** Security headers only, the CSP's whitespace normalised (helmet leaves a space where a function directive was empty). */
function securityHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (['content-type', 'content-length', 'date', 'connection', 'cache-control'].includes(name)) continue;
    out[name] =
      name === 'content-security-policy'
        ? String(value)
            .split(';')
            .map((d) => d.trim().split(/\s+/).join(' '))
            .join(';')
        : String(value);
  }
  return out;
}

const routes = (app: FastifyInstance) => {
  app.get('/api/thing', async () => ({ ok: true }));
  app.get('/api/fails', async () => {
    throw new Error('boom');
  });
  app.get('/page', async (_request, reply) => reply.type('text/html').send('<!doctype html>'));
  return app;
};

describe('precomputed security headers', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('equal helmet’s on API answers, errors, 404s and pages; API answers are never cached', async () => {
    const reference = routes(await withHelmet(() => []));
    const ours = Fastify();
    await registerSecurityHeaders(ours);
    routes(ours);
    for (const url of ['/api/thing', '/api/fails', '/api/missing', '/page', '/missing']) {
      const [expected, actual] = await Promise.all([reference.inject({ url }), ours.inject({ url })]);
      expect(actual.statusCode, url).toBe(expected.statusCode);
      expect(securityHeaders(actual.headers), url).toEqual(securityHeaders(expected.headers));
      expect(Object.keys(securityHeaders(actual.headers)).length, url).toBe(11);
      expect(actual.headers['cache-control'], url).toBe(url.startsWith('/api') ? 'no-store' : undefined);
    }
  });

  it('adds the client’s inline-style hashes once index.html is built, as helmet did', async () => {
    const clientDir = mkdtempSync(join(tmpdir(), 'arb-headers-'));
    dirs.push(clientDir);
    const ours = Fastify();
    await registerSecurityHeaders(ours, clientDir);
    routes(ours);
    const before = String((await ours.inject({ url: '/page' })).headers['content-security-policy']);
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><style>body{margin:0}</style><title>app</title>');
    const [hash] = inlineStyleHashes('<style>body{margin:0}</style>');
    expect(hash).toBeDefined();
    expect(before).not.toContain(hash);
    const after = await ours.inject({ url: '/page' });
    expect(String(after.headers['content-security-policy'])).toContain(hash);
    const reference = routes(await withHelmet(() => inlineStyleHashes('<style>body{margin:0}</style>')));
    expect(securityHeaders(after.headers)).toEqual(securityHeaders((await reference.inject({ url: '/page' })).headers));
  });
});
