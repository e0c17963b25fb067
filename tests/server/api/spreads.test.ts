// GET /api/exchanges/spreads on an API-only instance (ENGINE=off) over recorded history: the resolution follows the
// range, buckets average what they hold, and every bad input is a clear 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpreadsResponse } from '../../../contract/api';
import type { SpreadPoint } from '../../../contract/entities';
import { SPREAD_MAX_POINTS, type SpreadSample } from '../../../contract/spreads';
import { insertSpreadSamples, rollUpSpreadSamples } from '../../../server/db/repositories/spread-history';
import { backends, createTestApp, type SignedIn, type TestApp } from '../helpers/app';

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;
/** A whole hour, so bucket boundaries (aligned to the epoch) fall where the test expects them. */
const NOW = Math.floor(Date.now() / HOUR) * HOUR;

/** A spread that moves through every value, so an average shows whether a bucket took the right samples. */
const spreadAt = (t: number) => ((t / SECOND) % 97) / 1_000_000;
const sampleAt = (t: number): SpreadSample => {
  const spread = spreadAt(t);
  return {
    symbol: 'BTC/USDT',
    t,
    binance: 60_000,
    deriv: 60_000 * (1 + spread),
    spread,
    spreadLow: spread,
    spreadHigh: spread,
  };
};

describe.each(backends)('spread history API on %s', (backend) => {
  let t: TestApp;
  let user: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(backend);
    user = await t.createUser();
    // The last two hours at one sample a second, and two hours three days ago rolled up into minutes.
    const recent = Array.from({ length: 2 * 3600 }, (_, i) => sampleAt(NOW - 2 * HOUR + i * SECOND));
    const old = Array.from({ length: 2 * 3600 }, (_, i) => sampleAt(NOW - 3 * DAY + i * SECOND));
    await insertSpreadSamples(t.db, [...recent, ...old]);
    await rollUpSpreadSamples(t.db, new Date(NOW - DAY));
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (query: string, token = user.token) => t.request('GET', `/api/exchanges/spreads?${query}`, { token });
  const range = (from: number, to: number, symbol = 'BTC/USDT') =>
    `symbol=${encodeURIComponent(symbol)}&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
  const series = async (from: number, to: number) => {
    const res = await get(range(from, to));
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as SpreadsResponse).series;
  };

  it('answers a short range with the raw one-second samples', async () => {
    const s = await series(NOW - 10 * 60 * SECOND, NOW);
    expect(s.resolutionSeconds).toBe(1);
    expect(s.points).toHaveLength(600);
    expect(s.points[0]).toEqual({
      t: NOW - 600 * SECOND,
      binance: 60_000,
      deriv: sampleAt(NOW - 600 * SECOND).deriv,
      spread: spreadAt(NOW - 600 * SECOND),
      spreadLow: spreadAt(NOW - 600 * SECOND),
      spreadHigh: spreadAt(NOW - 600 * SECOND),
    });
    expect(s.symbol).toBe('BTC/USDT');
    expect(s.from).toBe(new Date(NOW - 600 * SECOND).toISOString());
  });

  it('averages longer ranges into buckets, never more than the point limit', async () => {
    const twoHours = await series(NOW - 2 * HOUR, NOW);
    expect(twoHours.resolutionSeconds).toBe(5);
    expect(twoHours.points).toHaveLength(1440);
    const bucket = twoHours.points[7] as SpreadPoint;
    const inside = [0, 1, 2, 3, 4].map((i) => spreadAt(bucket.t + i * SECOND));
    expect(bucket.spread).toBeCloseTo(inside.reduce((a, b) => a + b, 0) / 5, 12);
    expect(bucket.spreadLow).toBe(Math.min(...inside));
    expect(bucket.spreadHigh).toBe(Math.max(...inside));

    expect((await series(NOW - DAY, NOW)).resolutionSeconds).toBe(60);
    const month = await series(NOW - 30 * DAY, NOW);
    expect(month.resolutionSeconds).toBe(900);
    // Two hours of minutes three days ago and two hours of seconds now: 8 + 8 quarter-hours.
    expect(month.points).toHaveLength(16);
    const year = await series(NOW - 366 * DAY, NOW);
    expect(Math.ceil((366 * DAY) / 1000 / year.resolutionSeconds)).toBeLessThanOrEqual(SPREAD_MAX_POINTS);
  });

  it('serves what is older than a day from its minute roll-ups, at a minute or coarser', async () => {
    const s = await series(NOW - 3 * DAY, NOW - 3 * DAY + HOUR);
    expect(s.resolutionSeconds).toBe(60);
    expect(s.points).toHaveLength(60);
    const first = s.points[0] as SpreadPoint;
    const inside = Array.from({ length: 60 }, (_, i) => spreadAt(first.t + i * SECOND));
    expect(first.spread).toBeCloseTo(inside.reduce((a, b) => a + b, 0) / 60, 12);
    expect(first.spreadHigh).toBe(Math.max(...inside));
  });

  it('answers an empty series for a symbol or range without history', async () => {
    expect((await series(NOW - 10 * DAY, NOW - 9 * DAY)).points).toEqual([]);
    const eth = await get(range(NOW - HOUR, NOW, 'ETH/USDT'));
    expect((eth.json() as SpreadsResponse).series.points).toEqual([]);
  });

  it('refuses bad input with a 400 that says what is wrong', async () => {
    const refused = async (query: string, message: RegExp) => {
      const res = await get(query);
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json() as { success: boolean; message: string; errors?: Array<{ msg: string }> };
      expect(body.success).toBe(false);
      expect([body.message, ...(body.errors ?? []).map((e) => e.msg)].join(' | ')).toMatch(message);
    };
    await refused(range(NOW - HOUR, NOW, 'FOO/USDT'), /symbol must be a pair such as BTC\/USDT/);
    await refused(range(NOW, NOW - HOUR), /from must be before to/);
    await refused(range(NOW, NOW), /from must be before to/);
    await refused(range(NOW - 400 * DAY, NOW), /at most 366 days/);
    await refused('symbol=BTC%2FUSDT&from=yesterday&to=2026-01-01T00:00:00Z', /from must be an ISO 8601 date-time/);
    await refused('symbol=BTC%2FUSDT&from=2026-01-01&to=2026-01-02', /from must be an ISO 8601 date-time/);
    await refused(
      'symbol=BTC%2FUSDT&from=2026-02-30T00:00:00Z&to=2026-03-02T00:00:00Z',
      /from must be an ISO 8601 date-time/,
    );
    await refused('symbol=BTC%2FUSDT', /from/);
  });

  it('is for signed-in users only', async () => {
    const res = await t.request('GET', `/api/exchanges/spreads?${range(NOW - HOUR, NOW)}`);
    expect(res.statusCode).toBe(401);
  });
});
