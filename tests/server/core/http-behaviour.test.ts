import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestApp, type TestApp } from '../helpers/app';

describe.each(backends)('HTTP behaviour on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend, { env: { BODY_LIMIT: '2048' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (payload: string | Buffer, contentType?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload,
      headers: contentType ? { 'content-type': contentType } : {},
    });

  it('answers malformed bodies with clear 4xx messages, never 500', async () => {
    const malformed = await post('{"username": "a", ', 'application/json');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ success: false, message: 'Request body is not valid JSON.' });

    const empty = await post('', 'application/json');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().success).toBe(false);

    const wrongType = await post('username=a&password=b', 'application/x-www-form-urlencoded');
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().message).toBe('Unsupported content type. Send JSON with Content-Type: application/json.');

    const tooLarge = await post(JSON.stringify({ username: 'a', password: 'x'.repeat(4096) }), 'application/json');
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().message).toBe('Request body is too large (at most 2048 bytes).');

    for (const body of ['null', '[]', '"text"', '42', '{"username": 5, "password": {}}', '{"__proto__": {"x": 1}}']) {
      const res = await post(body, 'application/json');
      expect(res.statusCode, body).toBe(400);
      expect(res.json().success).toBe(false);
      expect(res.json().message.length).toBeGreaterThan(5);
    }
  });

  it('names the missing fields', async () => {
    const res = await post('{}', 'application/json');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { path: string }) => e.path)).toEqual(['username', 'password']);
  });

  it('answers unknown API routes and methods with 404 JSON', async () => {
    for (const [method, url] of [
      ['GET', '/api/nothing'],
      ['DELETE', '/api/auth/login'],
      ['GET', '/api'],
      ['POST', '/elsewhere'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ success: false });
    }
  });

  it('sets security headers and forbids caching API answers', async () => {
    const res = await t.request('GET', '/api/auth/profile', { token: t.admin.token });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-frame-options']).toBe('DENY');
    const csp = String(res.headers['content-security-policy']);
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "frame-ancestors 'none'",
      "worker-src 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    // No inline styles but the server's own, by hash; the socket only to this origin.
    expect(csp).not.toMatch(/style-src[^;]*unsafe-inline/);
    expect(csp).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toMatch(/connect-src 'self'(;|$)/);
    expect((await t.request('POST', '/api/auth/login', { body: {} })).headers['cache-control']).toBe('no-store');
  });

  it('publishes an OpenAPI document generated from the request schemas', async () => {
    const res = await t.request('GET', '/api/docs');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/auth/login',
      '/api/auth/profile',
      '/api/users/{id}',
      '/api/users/{id}/api-keys',
      '/api/admin/users',
      '/api/admin/users/{id}/toggle-active',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    const login = doc.paths['/api/auth/login'].post.requestBody.content['application/json'].schema;
    expect(login.required).toEqual(['username', 'password']);
    // Signed in, or (two-factor sign-in) a challenge for the second step.
    const answers = doc.paths['/api/auth/login'].post.responses['200'].content['application/json'].schema.anyOf as {
      properties: Record<string, { properties?: object }>;
    }[];
    expect(answers.some((a) => 'challenge' in a.properties)).toBe(true);
    const answer = answers.find((a) => 'user' in a.properties) as { properties: { user: { properties: object } } };
    expect(answer.properties.user.properties).toHaveProperty('hasDerivToken');
    expect(answer.properties.user.properties).not.toHaveProperty('passwordHash');
  });

  it('never shows internal details of an unexpected failure', async () => {
    // Last test of the file: with the database gone, every authenticated call fails inside the server.
    await t.database.close();
    const res = await t.request('GET', '/api/auth/profile', { token: t.admin.token });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ success: false, message: 'Internal server error' });
    expect(t.logs.some((line) => line.includes('"level":50'))).toBe(true);
  });
});

describe('client pages', () => {
  let t: TestApp;
  let clientDir: string;
  beforeAll(async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    clientDir = mkdtempSync(join(tmpdir(), 'arb-dist-'));
    t = await createTestApp('pglite', { build: { clientDir, clientBuild: { state: 'building' } } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows a building page until index.html exists, then serves the shell with cache rules', async () => {
    const building = await t.app.inject({ method: 'GET', url: '/dashboard' });
    expect(building.statusCode).toBe(503);
    expect(building.body).toContain('The app is being built');
    expect(building.headers['content-security-policy']).toContain("script-src 'self'");

    mkdirSync(join(clientDir, 'assets'), { recursive: true });
    writeFileSync(
      join(clientDir, 'index.html'),
      '<!doctype html><title>app</title><script type="module" src="/assets/index-AbCd1234.js"></script>',
    );
    const script = `console.log(${JSON.stringify('x'.repeat(5000))});`;
    writeFileSync(join(clientDir, 'assets', 'index-AbCd1234.js'), script);
    // The build stores compressed variants beside each file (tools/precompress.ts); the server sends those.
    writeFileSync(join(clientDir, 'assets', 'index-AbCd1234.js.gz'), gzipSync(script));
    writeFileSync(join(clientDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');

    for (const url of ['/', '/dashboard', '/trades?page=2', '/admin/users']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.body).toContain('<title>app</title>');
    }
    const asset = await t.app.inject({
      method: 'GET',
      url: '/assets/index-AbCd1234.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-encoding']).toBe('gzip');
    const sw = await t.app.inject({ method: 'GET', url: '/sw.js' });
    expect(sw.headers['cache-control']).toBe('no-cache');
    // A build file that does not exist is a 404, never the app shell.
    for (const url of ['/assets/index-Gone1234.js', '/assets/missing.css?v=1', '/icons/none.png']) {
      const missing = await t.app.inject({ method: 'GET', url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.body, url).not.toContain('<title>app</title>');
    }
    // API paths never fall back to the page.
    expect((await t.app.inject({ method: 'GET', url: '/api/missing' })).headers['content-type']).toContain(
      'application/json',
    );
  });
});
