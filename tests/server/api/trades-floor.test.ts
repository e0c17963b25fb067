// The benchmark's floor (bench/api-floor.ts) must do the same work as the product's GET /api/trades, or the ratio
// between them means nothing: for the same token and query both answer the same status and byte-identical JSON, and
// both stop honouring a token once its session ends. PostgreSQL only (the floor is a `pg` server).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFloor, type Floor } from '../../../bench/api-floor';
import { seedTrades } from '../../../bench/lib/seed';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/app';

describe.runIf(process.env.TEST_POSTGRES_URL)('the trades floor answers as the product does', () => {
  let t: TestApp;
  let floor: Floor;
  let alice: SignedIn;

  beforeAll(async () => {
    t = await createTestApp('postgres');
    alice = await t.createUser();
    const bob = await t.createUser();
    // Realistic rows: two legs with fills, every status, both symbols; another user's rows interleaved.
    await seedTrades(t.db, [alice.user._id, bob.user._id], 130);
    floor = await startFloor({ databaseUrl: t.database.url as string, tokenKey: t.app.secrets.tokenKey });
  }, 60_000);

  afterAll(async () => {
    await floor?.close();
    await t?.close();
  });

  const both = async (url: string, token: string) => {
    const headers = { authorization: `Bearer ${token}` };
    const [product, bare] = await Promise.all([
      t.app.inject({ method: 'GET', url, headers }),
      floor.app.inject({ method: 'GET', url, headers }),
    ]);
    return { product, bare };
  };

  it.each([
    '/api/trades',
    '/api/trades?page=2&limit=20',
    '/api/trades?status=completed&limit=7&page=3',
    '/api/trades?symbol=ETH%2FUSDT',
    '/api/trades?status=failed&symbol=BTC%2FUSDT&limit=5',
    '/api/trades?page=40&limit=50',
  ])('%s', async (url) => {
    const { product, bare } = await both(url, alice.token);
    expect(product.statusCode).toBe(200);
    expect(bare.statusCode).toBe(200);
    expect(bare.body).toBe(product.body);
    const body = product.json() as { trades: { legs: unknown[] }[]; pagination: { total: number } };
    if (!url.includes('page=40')) expect(body.trades.length).toBeGreaterThan(0);
    expect(body.pagination.total).toBeGreaterThan(0);
  });

  it('refuses the same token as the product once its session is ended', async () => {
    const carol = await t.createUser();
    expect((await both('/api/trades', carol.token)).bare.statusCode).toBe(200);
    expect((await t.request('POST', '/api/auth/logout', { token: carol.token })).statusCode).toBe(200);
    const { product, bare } = await both('/api/trades', carol.token);
    expect(product.statusCode).toBe(401);
    expect(bare.statusCode).toBe(401);
  });
});
