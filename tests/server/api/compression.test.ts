// Compression of API answers: large JSON answers go brotli (or gzip) as the client accepts, and decode to exactly the
// plain answer; small answers, clients that accept neither, and HEAD stay plain.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding, COMPRESS_MIN_BYTES } from '../../../server/http/plugins/compression';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/app';
import { insertTrades } from './seed';

describe('chooseEncoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0, br;q=0', null],
    ['identity', null],
    ['*', 'br'],
    ['*, br;q=0', 'gzip'],
    ['deflate', null],
    ['BR', 'br'],
    ['gzip;q=0.5, br;q=0.1', 'br'],
  ] as const)('%s → %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});

describe('API answers on the wire', () => {
  let t: TestApp;
  let alice: SignedIn;

  beforeAll(async () => {
    t = await createTestApp('pglite');
    alice = await t.createUser();
    await insertTrades(
      t.db,
      alice.user._id,
      Array.from({ length: 100 }, () => ({ status: 'completed' as const })),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  const page = (encoding?: string) =>
    t.request('GET', '/api/trades?page=1&limit=100', {
      token: alice.token,
      headers: encoding === undefined ? {} : { 'accept-encoding': encoding },
    });

  it('sends a large answer as brotli when accepted, decoding to the plain answer', async () => {
    const plain = await page();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_MIN_BYTES);

    const br = await page('gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
  });

  it('falls back to gzip, and to plain when neither is accepted', async () => {
    const plain = await page();
    const gz = await page('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);

    const identity = await page('identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(plain.body);
  });

  it('leaves small answers plain', async () => {
    const res = await t.request('GET', '/api/auth/profile', {
      token: alice.token,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toMatch(/accept-encoding/i);
  });

  it('compresses error answers in the API shape only when large, and never HEAD', async () => {
    const refused = await t.request('GET', '/api/trades?page=0', {
      token: alice.token,
      headers: { 'accept-encoding': 'br' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.json()).toMatchObject({ success: false });

    const head = await t.request('HEAD', '/api/trades?page=1&limit=100', {
      token: alice.token,
      headers: { 'accept-encoding': 'br' },
    });
    expect(head.headers['content-encoding']).toBeUndefined();
  });
});
