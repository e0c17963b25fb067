import { describe, expect, it } from 'vitest';
import type { Balances, SymbolPrice, Trade } from '../../contract/entities';
import {
  emptyBalances,
  reduceBalances,
  reduceOpportunities,
  reducePrices,
  reduceStats,
  reduceTrades,
  withProfitable,
} from './reconcile';

const trade = (id: string, patch: Partial<Trade> = {}): Trade => ({
  _id: id,
  tradeId: `T-${id}`,
  userId: 'u1',
  symbol: 'BTC/USDT',
  status: 'pending',
  totalAmount: 100,
  arbitrageSpread: 0.003,
  actualProfit: 0,
  origin: 'auto',
  reason: null,
  legs: [],
  createdAt: `2026-11-21T10:00:0${id}.000Z`,
  updatedAt: `2026-11-21T10:00:0${id}.000Z`,
  closedAt: null,
  ...patch,
});
const ids = (ts: Trade[]) => ts.map((t) => `${t._id}:${t.status}`);

describe('reduceTrades', () => {
  const base = [trade('2'), trade('1')];
  it.each([
    ['snapshot replaces', base, { type: 'snapshot', trades: [trade('3')] }, ['3:pending']],
    ['new trades are prepended', base, { type: 'new', trade: trade('3') }, ['3:pending', '2:pending', '1:pending']],
    [
      'update replaces by _id',
      base,
      { type: 'updated', trade: trade('1', { status: 'completed' }) },
      ['2:pending', '1:completed'],
    ],
    [
      'update replaces by tradeId',
      base,
      { type: 'updated', trade: trade('x', { tradeId: 'T-2', status: 'failed' }) },
      ['x:failed', '1:pending'],
    ],
    [
      'unknown update is ignored',
      base,
      { type: 'updated', trade: trade('9', { status: 'completed' }) },
      ['2:pending', '1:pending'],
    ],
    [
      'a new trade already held replaces instead of duplicating',
      base,
      { type: 'new', trade: trade('2', { status: 'completed' }) },
      ['2:completed', '1:pending'],
    ],
  ] as const)('%s', (_name, state, event, expected) => {
    expect(ids(reduceTrades([...state], event as Parameters<typeof reduceTrades>[1]))).toEqual(expected);
  });
  it('keeps at most the limit, dropping the oldest', () => {
    expect(ids(reduceTrades(base, { type: 'new', trade: trade('3') }, 2))).toEqual(['3:pending', '2:pending']);
  });
});

describe('reduceBalances', () => {
  const snap: Balances = { ...emptyBalances(), binance: { USDT: 100, BTC: 1, ETH: 2 }, netProfit: 5 };
  it.each([
    ['snapshot replaces', null, { type: 'snapshot', value: snap }, snap],
    ['delta merges top-level fields', snap, { type: 'delta', value: { netProfit: 7 } }, { ...snap, netProfit: 7 }],
    [
      'delta merges per currency',
      snap,
      { type: 'delta', value: { binance: { USDT: 90 } } },
      { ...snap, binance: { USDT: 90, BTC: 1, ETH: 2 } },
    ],
  ] as const)('%s', (_n, state, event, expected) => {
    expect(reduceBalances(state, event as Parameters<typeof reduceBalances>[1])).toEqual(expected);
  });
  it('a delta before any snapshot starts from zeros', () => {
    expect(reduceBalances(null, { type: 'delta', value: { winRate: 50 } })?.winRate).toBe(50);
  });
});

describe('reduceStats', () => {
  it.each([
    ['snapshot', null, { type: 'snapshot', value: { totalTrades: 3 } }, 3, 0],
    ['delta merges', { totalTrades: 3, successfulTrades: 2 }, { type: 'delta', value: { totalTrades: 4 } }, 4, 2],
  ] as const)('%s', (_n, state, event, total, successful) => {
    const s = reduceStats(state as never, event as never);
    expect(s?.totalTrades).toBe(total);
    expect(s?.successfulTrades).toBe(successful);
  });
});

describe('reducePrices', () => {
  const p = (symbol: 'BTC/USDT' | 'ETH/USDT', spread: number | null, profitable = false): SymbolPrice => ({
    symbol,
    binance: 100,
    deriv: spread === null ? null : 100 * (1 + spread),
    spread,
    arbitrage: { profitable },
    timestamp: '2026-11-21T10:00:00.000Z',
    stale: false,
    ageMs: { binance: 100, deriv: 100 },
  });
  it('merges one symbol into the map', () => {
    const state = reducePrices({}, { type: 'snapshot', prices: { 'BTC/USDT': p('BTC/USDT', 0.001) } });
    const next = reducePrices(state, { type: 'update', price: p('ETH/USDT', 0.004) });
    expect(Object.keys(next).sort()).toEqual(['BTC/USDT', 'ETH/USDT']);
  });
  it.each([
    ['above the default 0.002', 0.0025, 0.002, true],
    ['below the default', 0.0015, 0.002, false],
    ['negative spread counts by size', -0.003, 0.002, true],
    ["user's own higher minSpread", 0.0025, 0.005, false],
    ['missing spread', null, 0.002, false],
    ['exactly at minSpread (the contract rule: reaching it is enough)', 0.002, 0.002, true],
  ] as const)('profitable %s', (_n, spread, minSpread, expected) => {
    expect(withProfitable(p('BTC/USDT', spread, !expected), minSpread).arbitrage.profitable).toBe(expected);
  });
  it('never calls a stale price profitable, whatever its spread', () => {
    expect(withProfitable({ ...p('BTC/USDT', 0.01, true), stale: true }, 0.002).arbitrage.profitable).toBe(false);
  });
});

describe('reduceOpportunities', () => {
  it('appends and keeps a bounded window', () => {
    const o = (n: number) => ({
      pair: 'BTC/USDT' as const,
      spread: n,
      binance: 1,
      deriv: 1,
      direction: 'deriv-rich' as const,
      timestamp: '',
    });
    let s = reduceOpportunities([], o(1), 2);
    s = reduceOpportunities(s, o(2), 2);
    s = reduceOpportunities(s, o(3), 2);
    expect(s.map((x) => x.spread)).toEqual([2, 3]);
  });
});
