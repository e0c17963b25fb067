// Decisions of TradingCore, table by table: thresholds, sizing, in-flight exposure, one trade per symbol, closes.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TRADING_PARAMS, openThreshold } from '../../../server/engine/costs';
import { money } from '../../../server/engine/decimal';
import { toPriceTick } from '../../../server/engine/prices';
import { ThresholdIndex } from '../../../server/engine/threshold-index';
import { TradingCore, type Command, type UserLimits } from '../../../server/engine/trading-core';
import type { SymbolId } from '../../../contract/domain';

const user = (userId: string, over: Partial<UserLimits> = {}): UserLimits => ({
  userId,
  maxExposure: '1000',
  maxLoss: '100',
  minSpread: 0.002,
  takerFee: 0.001,
  autoTrade: true,
  halted: false,
  ...over,
});

function setup(params = DEFAULT_TRADING_PARAMS) {
  let now = 0;
  let n = 0;
  const core = new TradingCore({ params, now: () => now, newIds: () => ({ id: `id${++n}`, tradeId: `T${n}` }) });
  const tick = (spread: number, symbol: SymbolId = 'BTC/USDT') =>
    toPriceTick(symbol, { venue: 'binance', symbol, bid: 99.99, ask: 100.01, ts: now }, { venue: 'deriv', symbol, bid: 100 * (1 + spread) - 0.01, ask: 100 * (1 + spread) + 0.01, ts: now });
  return { core, tick, advance: (ms: number) => (now += ms) };
}
const opens = (cs: Command[]) => cs.filter((c): c is Extract<Command, { kind: 'open' }> => c.kind === 'open');
const closes = (cs: Command[]) => cs.filter((c): c is Extract<Command, { kind: 'close' }> => c.kind === 'close');

describe('TradingCore decisions', () => {
  it('opens only when |spread| beats both the user minSpread and the costs', () => {
    const { core, tick } = setup();
    const costs = openThreshold(DEFAULT_TRADING_PARAMS, 0, 0.001);
    expect(costs).toBeCloseTo(0.0035, 10); // 2·0.1 % + Deriv 0.05 % + slippage 0.05 % + close band 0.05 %
    core.upsertUser(user('low', { minSpread: 0.002 }));
    core.upsertUser(user('high', { minSpread: 0.006 }));
    expect(core.onTick(tick(0.003))).toEqual([]);
    const first = opens(core.onTick(tick(0.004)));
    expect(first.map((c) => c.trade.userId)).toEqual(['low']);
    expect(first[0]?.trade).toMatchObject({ direction: 'deriv-rich', notional: '250', origin: 'auto' });
    const second = opens(core.onTick(tick(-0.007)));
    expect(second.map((c) => [c.trade.userId, c.trade.direction])).toEqual([['high', 'binance-rich']]);
  });

  it('counts trades in flight against maxExposure and keeps one open trade per symbol', () => {
    const { core, tick } = setup();
    core.upsertUser(user('u', { maxExposure: '300' }));
    const a = opens(core.onTick(tick(0.01, 'BTC/USDT')));
    expect(a[0]?.trade.notional).toBe('75'); // maxExposure / 4
    expect(opens(core.onTick(tick(0.01, 'BTC/USDT')))).toEqual([]); // same symbol: one at a time
    const b = opens(core.onTick(tick(0.01, 'ETH/USDT')));
    expect(b[0]?.trade.notional).toBe('75');
    expect(core.committedOf('u').toFixed()).toBe('150'); // neither has filled yet: both count
    const manual = core.manualOpen(user('u', { maxExposure: '300' }), 'BTC/USDT', money(10), tick(0));
    expect(manual).toMatchObject({ ok: false, status: 409 });
  });

  it('sizes the last trade to the remaining exposure and stops below the minimum notional', () => {
    const { core, tick } = setup();
    core.upsertUser(user('u', { maxExposure: '95' }));
    const a = opens(core.onTick(tick(0.01, 'BTC/USDT')));
    expect(a[0]?.trade.notional).toBe('23.75');
    const manual = core.manualOpen(user('u'), 'ETH/USDT', money(70), tick(0.0, 'ETH/USDT'));
    expect(manual.ok).toBe(true);
    // 1.25 left: below 10 USDT, no automatic trade
    expect(core.committedOf('u').toFixed()).toBe('93.75');
    core.onEnded(a[0]?.trade.tradeId as string, money(0));
    expect(opens(core.onTick(tick(0.01, 'BTC/USDT')))[0]?.trade.notional).toBe('23.75');
  });

  it('closes open trades on convergence, on a widening stop and on the time limit', () => {
    const { core, tick, advance } = setup();
    core.upsertUser(user('a'));
    core.upsertUser(user('b', { minSpread: 0.009 }));
    const [ta] = opens(core.onTick(tick(0.005)));
    const [tb] = opens(core.onTick(tick(0.0095)));
    core.onOpened(ta?.trade.tradeId as string);
    core.onOpened(tb?.trade.tradeId as string);
    // a opened at 0.5 %: its stop is at 1.5 %; b's at 1.95 %
    expect(closes(core.onTick(tick(0.016))).map((c) => [c.userId, c.reason])).toEqual([['a', 'stop: spread widened']]);
    expect(closes(core.onTick(tick(0.0004))).map((c) => [c.userId, c.reason])).toEqual([['b', 'converged']]);
    core.onEnded(ta?.trade.tradeId as string, money(1));
    core.onEnded(tb?.trade.tradeId as string, money(1));
    const [tc] = opens(core.onTick(tick(0.006)));
    core.onOpened(tc?.trade.tradeId as string);
    advance(DEFAULT_TRADING_PARAMS.maxHoldMs);
    expect(closes(core.checkTimeLimits(DEFAULT_TRADING_PARAMS.maxHoldMs)).map((c) => c.reason)).toEqual(['time limit']);
  });

  it('halts a user once realised loss reaches maxLoss and cancels their other trades', () => {
    const { core, tick } = setup();
    core.upsertUser(user('u', { maxLoss: '5' }));
    const [btc] = opens(core.onTick(tick(0.01, 'BTC/USDT')));
    const [eth] = opens(core.onTick(tick(0.01, 'ETH/USDT')));
    core.onOpened(eth?.trade.tradeId as string);
    expect(core.onEnded(btc?.trade.tradeId as string, money(-3))).toEqual([]);
    const after = core.onEnded('unknown', money(0));
    expect(after).toEqual([]);
    core.onOpened(btc?.trade.tradeId as string);
    const halt = core.onEnded(eth?.trade.tradeId as string, money('-2.5'));
    expect(halt[0]).toMatchObject({ kind: 'halt', userId: 'u', realisedPnl: '-5.5', maxLoss: '5' });
    expect(core.isHalted('u')).toBe(true);
    expect(opens(core.onTick(tick(0.02, 'BTC/USDT')))).toEqual([]);
    expect(core.manualOpen(user('u'), 'BTC/USDT', money(20), tick(0.02))).toMatchObject({ ok: false, status: 409 });
    // re-enabling with a fresh loss window trades again
    core.upsertUser(user('u', { maxLoss: '5', realisedPnl: '0' }));
    expect(opens(core.onTick(tick(0.02, 'ETH/USDT')))).toHaveLength(1);
  });

  it('visits only triggered users on a tick', () => {
    const index = new ThresholdIndex();
    for (let i = 0; i < 1000; i += 1) index.upsert(`u${i}`, 0.002 + (i % 10) * 0.001);
    expect(index.takeUpTo(0.0015)).toEqual([]);
    expect(index.takeUpTo(0.0025)).toHaveLength(100);
    expect(index.size).toBe(900);
    index.upsert('u1', 0.5);
    index.remove('u2');
    expect(index.takeUpTo(0.0035)).toHaveLength(99);
    expect(index.has('u1')).toBe(true);
  });
});
