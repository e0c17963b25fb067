import { describe, expect, it } from 'vitest';
import type { TradeStatus } from './domain';
import { equityCurve } from './figures';
import {
  dayIn,
  periodKey,
  pnlByPair,
  pnlByPeriod,
  reportCsv,
  reportTotal,
  tradeFees,
  type ReportTrade,
} from './reports';

const fill = (fee: number) => ({ fee });
const trade = (
  closedAt: string,
  actualProfit: number,
  { symbol = 'BTC/USDT', status = 'completed' as TradeStatus, fees = [0.1, 0.1, 0.05, 0.05] } = {},
): ReportTrade => ({
  symbol,
  status,
  actualProfit,
  closedAt,
  updatedAt: closedAt,
  legs: [
    { open: fill(fees[0]!), close: fill(fees[1]!) },
    { open: fill(fees[2]!), close: fill(fees[3]!) },
  ],
});

describe('tradeFees', () => {
  it('adds every fill of both legs and counts a fill not made as no fee', () => {
    expect(tradeFees(trade('2026-01-01T00:00:00Z', 1))).toBeCloseTo(0.3, 12);
    expect(
      tradeFees({
        legs: [
          { open: fill(0.2), close: null },
          { open: null, close: null },
        ],
      }),
    ).toBe(0.2);
  });
});

describe('pnlByPeriod', () => {
  it('buckets by the calendar day of the user time zone, not of UTC', () => {
    // 23:30 UTC on 31 Dec is already 1 Jan in Berlin (UTC+1) and still 31 Dec in New York (UTC-5).
    const trades = [trade('2026-12-31T23:30:00Z', 2), trade('2026-12-31T22:30:00Z', 1)];
    expect(pnlByPeriod(trades, 'day', 'Europe/Berlin').map((r) => [r.key, r.netProfit])).toEqual([
      ['2027-01-01', 2],
      ['2026-12-31', 1],
    ]);
    expect(pnlByPeriod(trades, 'day', 'America/New_York').map((r) => [r.key, r.netProfit])).toEqual([
      ['2026-12-31', 3],
    ]);
    expect(pnlByPeriod(trades, 'month', 'Europe/Berlin').map((r) => r.key)).toEqual(['2027-01', '2026-12']);
  });

  it('starts weeks on Monday: Sunday closes the week, Monday opens the next', () => {
    // 2026-11-22 is a Sunday, 2026-11-23 a Monday.
    expect(periodKey('2026-11-22', 'week')).toBe('2026-11-16');
    expect(periodKey('2026-11-23', 'week')).toBe('2026-11-23');
    expect(periodKey('2026-11-29', 'week')).toBe('2026-11-23');
    const rows = pnlByPeriod(
      [trade('2026-11-22T12:00:00Z', 1), trade('2026-11-23T12:00:00Z', 2), trade('2026-11-29T12:00:00Z', 4)],
      'week',
      'UTC',
    );
    expect(rows.map((r) => [r.key, r.trades, r.netProfit])).toEqual([
      ['2026-11-23', 2, 6],
      ['2026-11-16', 1, 1],
    ]);
  });

  it('counts won trades and fees, and leaves open trades out', () => {
    const rows = pnlByPeriod(
      [
        trade('2026-03-02T10:00:00Z', 1.5),
        trade('2026-03-02T11:00:00Z', -0.4, { status: 'failed' }),
        trade('2026-03-02T12:00:00Z', 0.2, { status: 'cancelled' }),
        trade('2026-03-02T13:00:00Z', 0, { status: 'pending' }),
      ],
      'day',
      'UTC',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ key: '2026-03-02', trades: 3, won: 2 });
    expect(rows[0]!.netProfit).toBeCloseTo(1.3, 12);
    expect(rows[0]!.fees).toBeCloseTo(0.9, 12);
  });

  it('sums to the same net P&L as the equity curve ends on (one definition of realised P&L)', () => {
    const trades = [
      trade('2026-01-05T01:00:00Z', 3),
      trade('2026-02-07T01:00:00Z', -1.25, { status: 'failed' }),
      trade('2026-02-08T01:00:00Z', 0, { status: 'pending' }),
    ];
    const curve = equityCurve(trades);
    for (const period of ['day', 'week', 'month'] as const)
      expect(reportTotal(pnlByPeriod(trades, period, 'Asia/Tokyo')).netProfit).toBe(curve.at(-1)!.equity);
  });
});

describe('pnlByPair', () => {
  it('gives one row per pair, the best first', () => {
    const rows = pnlByPair([
      trade('2026-01-01T00:00:00Z', 1, { symbol: 'ETH/USDT' }),
      trade('2026-01-02T00:00:00Z', -2, { symbol: 'BTC/USDT' }),
      trade('2026-01-03T00:00:00Z', 0.5, { symbol: 'ETH/USDT' }),
      trade('2026-01-03T00:00:00Z', 9, { symbol: 'SOL/USDT', status: 'pending' }),
    ]);
    expect(rows.map((r) => [r.key, r.trades, r.won, r.netProfit])).toEqual([
      ['ETH/USDT', 2, 2, 1.5],
      ['BTC/USDT', 1, 0, -2],
    ]);
  });
});

describe('reportCsv', () => {
  it('writes a header and one CRLF line per row with plain decimals', () => {
    const csv = reportCsv([{ key: '2026-11', trades: 2, won: 1, netProfit: 0.1 + 0.2, fees: 1e-7 }], 'month');
    expect(csv).toBe('month,trades,won,net_pnl_usdt,fees_usdt\r\n2026-11,2,1,0.3,0.0000001\r\n');
  });

  it('reads the day in a zone east of UTC', () => {
    expect(dayIn(Date.parse('2026-06-30T20:00:00Z'), 'Asia/Tokyo')).toBe('2026-07-01');
  });
});
