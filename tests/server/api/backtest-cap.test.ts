// A range holding more recorded engine ticks than one backtest replays is refused with a message before any is read.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKTEST_MAX_TICKS } from '../../../contract/backtest';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/app';

const NOW = Math.floor(Date.now() / 1000) * 1000;

describe('backtest of too many recorded ticks', () => {
  let t: TestApp;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    user = await t.createUser();
    // One more tick than the cap, a millisecond apart, in the last hour.
    await t.db.execute(sql`
      INSERT INTO spread_books
      SELECT 'BTC/USDT', to_timestamp((${NOW - 3_600_000}::bigint + i) / 1000.0), 0, 100, 100.01, 0, 100.02, 100.03, 0, true
      FROM generate_series(1, ${BACKTEST_MAX_TICKS + 1}) AS i`);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('refuses the range with the count and what to do', async () => {
    const body = {
      symbol: 'both',
      from: new Date(NOW - 3_600_000).toISOString(),
      to: new Date(NOW).toISOString(),
      minSpread: 0.002,
      maxExposure: 1000,
      maxLoss: 100,
    };
    const res = await t.request('POST', '/api/backtest', { token: user.token, body });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toContain(
      'This range holds 1,500,001 recorded price ticks, more than one backtest replays (1,500,000); pick a shorter range or one symbol',
    );
    const eth = await t.request('POST', '/api/backtest', { token: user.token, body: { ...body, symbol: 'ETH/USDT' } });
    expect(eth.body).not.toContain('recorded price ticks');
  });
});
