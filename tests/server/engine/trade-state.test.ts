import { describe, expect, it } from 'vitest';
import type { LegFill } from '../../../server/venues/types';
import {
  applyTradeEvent,
  createTrade,
  pendingOrders,
  statusOf,
  type TradeState,
} from '../../../server/engine/trade-state';

const now = new Date('2026-01-01T00:00:00Z');
const fresh = (direction: 'deriv-rich' | 'binance-rich' = 'deriv-rich') =>
  createTrade({
    id: 'id-1',
    tradeId: 'T1',
    userId: 'u',
    symbol: 'BTC/USDT',
    direction,
    origin: 'auto',
    notional: '1000',
    openSpread: 0.01,
    createdAt: now,
  });
const fill = (clientOrderId: string, price: string, quantity: string, fee: string): LegFill => ({
  clientOrderId,
  venueOrderId: `v-${clientOrderId}`,
  price,
  quantity,
  fee,
  at: now.getTime(),
});
const step = (s: TradeState, ...events: Parameters<typeof applyTradeEvent>[1][]) =>
  events.reduce((acc, e) => applyTradeEvent(acc, e, now), s);

describe('trade state machine', () => {
  it('buys Binance and shorts Deriv when Deriv is rich, with the documented client order ids', () => {
    const t = fresh();
    expect(t.legs.map((l) => [l.venue, l.side, l.clientOrderId])).toEqual([
      ['binance', 'buy', 'T1-b'],
      ['deriv', 'sell', 'T1-d'],
    ]);
    expect(fresh('binance-rich').legs.map((l) => l.side)).toEqual(['sell', 'buy']);
    expect(pendingOrders(t).map((o) => o.kind)).toEqual(['open', 'open']);
    expect(statusOf(t.stage)).toBe('pending');
  });

  it('runs opening → open → closing → completed with profit = Σ PnL − fees', () => {
    let t = step(fresh(), { type: 'leg-opened', venue: 'binance', fill: fill('T1-b', '100', '10', '1') });
    expect(t.stage).toBe('opening');
    t = step(t, { type: 'leg-opened', venue: 'deriv', fill: fill('T1-d', '101', '10', '0.5') });
    expect(t.stage).toBe('open');
    expect(pendingOrders(t)).toEqual([]);
    t = step(t, { type: 'close-requested', reason: 'converged' });
    expect(t.stage).toBe('closing');
    expect(pendingOrders(t).map((o) => [o.kind, o.leg.venue])).toEqual([
      ['close', 'binance'],
      ['close', 'deriv'],
    ]);
    t = step(
      t,
      { type: 'leg-closed', venue: 'binance', fill: fill('T1-b-c', '100.5', '10', '1') },
      { type: 'leg-close-failed', venue: 'deriv', reason: 'x' },
    );
    expect(t.stage).toBe('closing');
    t = step(t, { type: 'leg-closed', venue: 'deriv', fill: fill('T1-d-c', '100.6', '10', '0') });
    // binance long: (100.5 − 100)·10 = 5; deriv short: (101 − 100.6)·10 = 4; fees 2.5
    expect(t.stage).toBe('completed');
    expect(t.actualProfit).toBe('6.5');
    expect(t.reason).toBe('converged');
    expect(t.closedAt).toEqual(now);
  });

  it('unwinds the filled leg when the other fails and ends failed with the reason', () => {
    let t = step(fresh(), { type: 'leg-opened', venue: 'binance', fill: fill('T1-b', '100', '10', '1') });
    t = step(t, { type: 'leg-open-failed', venue: 'deriv', reason: 'deriv leg failed: insufficient balance' });
    expect(t.stage).toBe('unwinding');
    expect(pendingOrders(t).map((o) => [o.kind, o.leg.venue])).toEqual([['close', 'binance']]);
    t = step(t, { type: 'leg-closed', venue: 'binance', fill: fill('T1-b-c', '99', '10', '1') });
    expect(t.stage).toBe('failed');
    expect(t.legs.map((l) => l.status)).toEqual(['unwound', 'failed']);
    expect(t.reason).toBe('deriv leg failed: insufficient balance');
    expect(t.actualProfit).toBe('-12');
  });

  it('waits for the other leg before deciding, and fails without orders when both fail', () => {
    let t = step(fresh(), { type: 'leg-open-failed', venue: 'deriv', reason: 'no' });
    expect(t.stage).toBe('opening');
    t = step(t, { type: 'leg-open-failed', venue: 'binance', reason: 'no either' });
    expect(t.stage).toBe('failed');
    expect(t.actualProfit).toBe('0');
  });

  it('defers a close asked for while opening; a trade that held both legs ends closed, never cancelled, with profit realised', () => {
    let t = step(fresh(), { type: 'close-requested', reason: 'closed by you' });
    expect(t.stage).toBe('opening');
    t = step(
      t,
      { type: 'leg-opened', venue: 'binance', fill: fill('T1-b', '100', '1', '0') },
      { type: 'leg-opened', venue: 'deriv', fill: fill('T1-d', '100', '1', '0') },
    );
    expect(t.stage).toBe('closing');
    t = step(
      t,
      { type: 'leg-closed', venue: 'binance', fill: fill('T1-b-c', '103', '1', '0') },
      { type: 'leg-closed', venue: 'deriv', fill: fill('T1-d-c', '101', '1', '0') },
    );
    expect(t.stage).toBe('completed');
    expect(t.reason).toBe('closed by you');
    expect(t.actualProfit).toBe('2');
  });

  it('ignores events that do not fit the stage, and terminal states never change', () => {
    const t = fresh();
    expect(step(t, { type: 'leg-closed', venue: 'binance', fill: fill('x', '1', '1', '0') })).toBe(t);
    expect(step(t, { type: 'close-requested', reason: 'r' }).stage).toBe('opening');
    const failed = step(
      t,
      { type: 'leg-open-failed', venue: 'deriv', reason: 'a' },
      { type: 'leg-open-failed', venue: 'binance', reason: 'b' },
    );
    expect(step(failed, { type: 'leg-opened', venue: 'binance', fill: fill('T1-b', '1', '1', '0') })).toBe(failed);
  });
});
