// Issue 20: the calibrated market says what to expect, measured from its own recorded spread history: the episodes
// in which a pair's spread reached a new account's opening threshold, per recorded day, in GET /snapshot and GET /meta.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetaResponse, SnapshotResponse } from '../../../contract/api';
import type { SpreadPoint } from '../../../contract/entities';
import { spreadMinutes } from '../../../server/db/schema';
import { countOpportunities, measurePace, PACE_THRESHOLD } from '../../../server/http/meta/calibrated-pace';
import { backends, createTestApp, type TestApp } from '../helpers/app';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const wide = PACE_THRESHOLD * 1.2;
const narrow = PACE_THRESHOLD * 0.5;
const point = (t: number, low: number, high: number): SpreadPoint => ({
  t,
  binance: 100,
  deriv: 100,
  spread: (low + high) / 2,
  spreadLow: low,
  spreadHigh: high,
});

describe('countOpportunities', () => {
  it('counts each run of wide minutes once, either way, and a gap starts a new one', () => {
    const points = [
      point(0, 0, narrow),
      point(MINUTE, 0, wide), // 1
      point(2 * MINUTE, 0, wide),
      point(3 * MINUTE, 0, narrow),
      point(4 * MINUTE, -wide, 0), // 2: Binance-rich counts too
      point(6 * MINUTE, 0, wide), // 3: a missing minute between
    ];
    expect(countOpportunities(points, PACE_THRESHOLD)).toBe(3);
    expect(countOpportunities([point(0, 0, PACE_THRESHOLD * 0.99)], PACE_THRESHOLD)).toBe(0);
  });
});

describe.each(backends)('the calibrated market pace on %s', (backend) => {
  let t: TestApp;
  let demo: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend, { env: { MARKET: 'sim', SIM_PROFILE: 'calibrated' } });
    demo = await createTestApp(backend, { env: { MARKET: 'sim', SIM_PROFILE: 'demo' } });
  });
  afterAll(async () => {
    await t?.close();
    await demo?.close();
  });

  it('is null with no history, then the recorded opportunities per recorded day; absent on the demo profile', async () => {
    const user = await t.createUser();
    const now = Date.now();
    expect(await measurePace(t.db, now)).toBeNull();

    // Two recorded days, two and four days ago: 3 BTC + 2 ETH opportunities on the first, 1 on the second.
    const dayA = Math.floor((now - 2 * DAY) / DAY) * DAY;
    const dayB = Math.floor((now - 4 * DAY) / DAY) * DAY;
    const row = (symbol: 'BTC/USDT' | 'ETH/USDT', at: number, high: number) => ({
      symbol,
      at: new Date(at),
      samples: 60,
      binance: 100,
      deriv: 100,
      spread: high / 2,
      spreadLow: 0,
      spreadHigh: high,
    });
    await t.db.insert(spreadMinutes).values([
      ...[0, 10, 20].map((m) => row('BTC/USDT', dayA + m * MINUTE, wide)),
      row('BTC/USDT', dayA + 11 * MINUTE, wide), // continues the run of minute 10
      row('BTC/USDT', dayA + 30 * MINUTE, narrow),
      ...[5, 50].map((m) => row('ETH/USDT', dayA + m * MINUTE, wide)),
      row('ETH/USDT', dayB + 7 * MINUTE, wide),
      row('ETH/USDT', dayB + 8 * MINUTE, narrow),
      // Older than the week: not counted.
      row('BTC/USDT', dayA - 8 * DAY, wide),
    ]);

    const expected = { perDay: 3, days: 2, threshold: PACE_THRESHOLD };
    const snap = await t.request('GET', '/api/snapshot', { token: user.token });
    expect(snap.statusCode, snap.body).toBe(200);
    expect((snap.json() as SnapshotResponse).market.pace).toEqual(expected);
    const meta = await t.request('GET', '/api/meta', { token: user.token });
    expect((meta.json() as MetaResponse).market.pace).toEqual(expected);

    const other = await demo.createUser();
    const demoSnap = await demo.request('GET', '/api/snapshot', { token: other.token });
    expect(demoSnap.statusCode, demoSnap.body).toBe(200);
    expect((demoSnap.json() as SnapshotResponse).market).not.toHaveProperty('pace');
  });
});
