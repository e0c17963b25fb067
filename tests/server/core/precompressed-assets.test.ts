// The client build's stored .br/.gz files, written by the build step (tools/precompress.ts) and sent by the server as
// they are (server/http/client/index.ts): the right variant for the request's Accept-Encoding, the same bytes after
// decoding, the cache rules of the file it encodes, and no compression of any response by the server itself.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressFile, precompressDir } from '../../../tools/precompress';
import { createTestApp, type TestApp } from '../helpers/app';

const SCRIPT = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, label: `row ${i}` })))};\n`;
const HTML = `<!doctype html><html><head><title>app</title><script type="module" src="/assets/index-AbCd1234.js"></script></head><body>${'<p>shell</p>'.repeat(200)}</body></html>`;
const SW = `self.addEventListener('fetch', () => {});\n${'// precache list\n'.repeat(100)}`;
const MANIFEST = JSON.stringify({
  name: 'Arbitrage',
  short_name: 'Arb',
  start_url: '/',
  display: 'standalone',
  icons: Array.from({ length: 20 }, (_, i) => ({ src: `/icons/i${i}.png`, sizes: '192x192' })),
});

describe('precompress (build step)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'arb-precompress-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes brotli and gzip variants that decode to the file, only for text formats and only when smaller', async () => {
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'assets', 'index-AbCd1234.js'), SCRIPT);
    writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\n');
    writeFileSync(join(dir, 'icon.png'), Buffer.alloc(4000, 7));
    const results = await precompressDir(dir);

    const script = readFileSync(join(dir, 'assets', 'index-AbCd1234.js'));
    expect(brotliDecompressSync(readFileSync(join(dir, 'assets', 'index-AbCd1234.js.br')))).toEqual(script);
    expect(gunzipSync(readFileSync(join(dir, 'assets', 'index-AbCd1234.js.gz')))).toEqual(script);
    // Quality 11 brotli beats level 9 gzip on text.
    const entry = results.find((r) => r.file.endsWith('index-AbCd1234.js'))!;
    expect(entry.variants['.br']!).toBeLessThan(entry.variants['.gz']!);
    // 14 bytes do not compress: no variant. PNG is compressed already: never tried.
    expect(existsSync(join(dir, 'robots.txt.br'))).toBe(false);
    expect(existsSync(join(dir, 'robots.txt.gz'))).toBe(false);
    expect(existsSync(join(dir, 'icon.png.br'))).toBe(false);
    expect(results.map((r) => r.file)).not.toContain(join(dir, 'icon.png'));
  });

  it('removes a stale variant left by an earlier build when the new file no longer compresses', async () => {
    const file = join(dir, 'tiny.txt');
    writeFileSync(file, 'x'.repeat(2000));
    expect((await compressFile(file)).variants['.br']).toBeGreaterThan(0);
    writeFileSync(file, 'ab');
    expect((await compressFile(file)).variants).toEqual({});
    expect(existsSync(`${file}.br`)).toBe(false);
    expect(existsSync(`${file}.gz`)).toBe(false);
  });
});

describe('the client build', () => {
  const root = resolve(import.meta.dirname, '../../..');
  let outDir: string;
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('stores a .br and a .gz beside each text file, after the service worker is written, and precaches none of them', () => {
    outDir = mkdtempSync(join(tmpdir(), 'arb-build-'));
    const build = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/vite/bin/vite.js'),
        'build',
        '--logLevel',
        'error',
        '--outDir',
        outDir,
        '--emptyOutDir',
      ],
      {
        cwd: root,
        env: { ...process.env, NODE_ENV: 'production' },
        encoding: 'utf8',
      },
    );
    expect(build.status, build.stderr).toBe(0);
    const scripts = (readdirSync(outDir, { recursive: true }) as string[]).filter((file) =>
      /\.(js|html|webmanifest)$/.test(file),
    );
    expect(scripts).toEqual(expect.arrayContaining(['index.html', 'sw.js']));
    for (const file of scripts) {
      const original = readFileSync(join(outDir, file));
      // A few bytes may not compress (then no variant is stored, as tested above); anything of 1 KB does.
      if (original.length < 1024) continue;
      // sw.js is written by the PWA plugin's own closeBundle: its variants must be of the final file.
      expect(brotliDecompressSync(readFileSync(join(outDir, `${file}.br`))), file).toEqual(original);
      expect(gunzipSync(readFileSync(join(outDir, `${file}.gz`))), file).toEqual(original);
    }
    // The precache manifest inside sw.js names real files, and no compressed variant.
    const precached = [...readFileSync(join(outDir, 'sw.js'), 'utf8').matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]!);
    expect(precached).toContain('index.html');
    expect(precached.filter((url) => /\.(br|gz)$/.test(url))).toEqual([]);
    for (const url of precached) expect(existsSync(join(outDir, url)), url).toBe(true);
  }, 300_000);
});

describe('serving the stored variants', () => {
  let t: TestApp;
  let clientDir: string;
  beforeAll(async () => {
    clientDir = mkdtempSync(join(tmpdir(), 'arb-dist-'));
    mkdirSync(join(clientDir, 'assets'), { recursive: true });
    writeFileSync(join(clientDir, 'index.html'), HTML);
    writeFileSync(join(clientDir, 'assets', 'index-AbCd1234.js'), SCRIPT);
    writeFileSync(join(clientDir, 'assets', 'manifest-AbCd1234.webmanifest'), MANIFEST);
    writeFileSync(join(clientDir, 'sw.js'), SW);
    writeFileSync(join(clientDir, 'robots.txt'), 'User-agent: *\n');
    await precompressDir(clientDir);
    t = await createTestApp('pglite', { build: { clientDir } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it("sends the stored brotli bytes to a client that accepts br, with the file's type and cache rules", async () => {
    const res = await get('/assets/index-AbCd1234.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload).toEqual(readFileSync(join(clientDir, 'assets', 'index-AbCd1234.js.br')));
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the stored gzip bytes when br is not accepted, and the file itself when nothing is', async () => {
    const gz = await get('/assets/index-AbCd1234.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload).toEqual(readFileSync(join(clientDir, 'assets', 'index-AbCd1234.js.gz')));
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const refused = await get('/assets/index-AbCd1234.js', { 'accept-encoding': 'br;q=0, gzip' });
    expect(refused.headers['content-encoding']).toBe('gzip');

    for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
      const plain = await get('/assets/index-AbCd1234.js', headers);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      // The plain file answers an Accept-Encoding choice too: shared caches must keep the variants apart.
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(plain.body).toBe(SCRIPT);
    }
  });

  it("revalidates each variant by its own validator (304), never handing one encoding's validator to another", async () => {
    const br = await get('/assets/index-AbCd1234.js', { 'accept-encoding': 'br' });
    const plain = await get('/assets/index-AbCd1234.js');
    expect(br.headers.etag).toBeTruthy();
    expect(br.headers.etag).not.toBe(plain.headers.etag);

    const again = await get('/assets/index-AbCd1234.js', {
      'accept-encoding': 'br',
      'if-none-match': String(br.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    // The brotli variant's validator does not match the gzip variant: the full gzip body is sent.
    const other = await get('/assets/index-AbCd1234.js', {
      'accept-encoding': 'gzip',
      'if-none-match': String(br.headers.etag),
    });
    expect(other.statusCode).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
  });

  it('serves the shell (index.html for client routes, sw.js, the manifest) compressed and always revalidated', async () => {
    for (const url of ['/', '/dashboard', '/trades?page=2']) {
      const page = await get(url, { 'accept-encoding': 'br' });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-encoding'], url).toBe('br');
      expect(page.headers['content-type'], url).toContain('text/html');
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(page.rawPayload).toString(), url).toBe(HTML);
    }
    const sw = await get('/sw.js', { 'accept-encoding': 'br' });
    expect(sw.headers['content-encoding']).toBe('br');
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['service-worker-allowed']).toBe('/');
    const manifest = await get('/assets/manifest-AbCd1234.webmanifest', { 'accept-encoding': 'gzip' });
    expect(manifest.headers['content-encoding']).toBe('gzip');
    expect(manifest.headers['content-type']).toContain('application/manifest+json');
    expect(JSON.parse(gunzipSync(manifest.rawPayload).toString())).toEqual(JSON.parse(MANIFEST));
  });

  it('sends a file without a stored variant as it is, and compresses no API response', async () => {
    const robots = await get('/robots.txt', { 'accept-encoding': 'br, gzip' });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-encoding']).toBeUndefined();
    expect(robots.body).toBe('User-agent: *\n');

    const profile = await t.request('GET', '/api/auth/profile', {
      token: t.admin.token,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.headers['content-encoding']).toBeUndefined();
    expect(profile.json()).toMatchObject({ success: true });
  });
});
