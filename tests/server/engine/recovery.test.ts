// Crash recovery policy, unit by unit: trades found pending at start are reconciled with the venues' records.
import { describe, expect, it } from 'vitest';
import { NOT_PLACED_REASON } from '../../../server/engine/recovery';
import { applyTradeEvent, createTrade, type TradeState } from '../../../server/engine/trade-state';
import type { LegFill } from '../../../server/venues/types';
import { memoryEngine, tradeEvent } from './memory-engine';
import type { Trade } from '../../../contract/entities';

const at = new Date(Date.now() - 1000);
const base = (n: number) =>
  createTrade({
    id: `id-${n}`,
    tradeId: `R${n}`,
    userId: 'u',
    symbol: 'BTC/USDT',
    direction: 'deriv-rich',
    origin: 'auto',
    notional: '250',
    openSpread: 0.01,
    createdAt: at,
  });
const fill = (id: string, price: string, qty = '0.004'): LegFill => ({
  clientOrderId: id,
  venueOrderId: `s:${id}`,
  price,
  quantity: qty,
  fee: '0.1',
  at: at.getTime(),
});

describe('crash recovery', () => {
  it('does not place an opening leg late: fails the trade and unwinds the leg that was filled', async () => {
    const m = await memoryEngine();
    m.users.set('u');
    // the crash came after the Binance fill was recorded by the venue, before the Deriv order went out
    await m.book.recordFill('u', 'binance', 'BTC/USDT', fill('R1-b', '60000'), { USDT: '-240.1', BTC: '0.004' });
    await m.store.insert(base(1));
    m.quote('BTC/USDT', 60_000, 0.01);
    await m.engine.start();
    const failed = (await m.waitFor(tradeEvent('failed', 'u'))) as { trade: Trade };
    expect(failed.trade.reason).toBe(`deriv ${NOT_PLACED_REASON}`);
    expect(failed.trade.legs.map((l) => l.status)).toEqual(['unwound', 'failed']);
    expect(m.deriv.placed).toEqual([]);
    expect(m.binance.placed).toEqual(['R1-b-c']);
    await m.engine.stop();
  });

  it('finds closes the venue executed and places the missing one again with the same client order id', async () => {
    const m = await memoryEngine();
    m.users.set('u');
    let s: TradeState = base(2);
    const now = new Date();
    s = applyTradeEvent(s, { type: 'leg-opened', venue: 'binance', fill: fill('R2-b', '60000') }, now);
    s = applyTradeEvent(s, { type: 'leg-opened', venue: 'deriv', fill: fill('R2-d', '60600') }, now);
    s = applyTradeEvent(s, { type: 'close-requested', reason: 'converged' }, now);
    await m.store.insert(s);
    for (const [venue, id, price] of [
      ['binance', 'R2-b', '60000'],
      ['deriv', 'R2-d', '60600'],
      ['binance', 'R2-b-c', '60100'],
    ] as const) {
      await m.book.recordFill('u', venue, 'BTC/USDT', fill(id, price), {});
    }
    m.quote('BTC/USDT', 60_100, 0);
    await m.engine.start();
    const done = (await m.waitFor(tradeEvent('completed', 'u'))) as { trade: Trade };
    expect(done.trade.reason).toBe('converged');
    expect(m.binance.placed).toEqual([]); // its close was found, not placed again
    expect(m.deriv.placed).toEqual(['R2-d-c']);
    expect(done.trade.legs[0]?.close?.price).toBe(60100);
    await m.engine.stop();
  });

  it('adopts a trade whose legs were both open and closes it by the usual rules', async () => {
    const m = await memoryEngine();
    m.users.set('u');
    let s: TradeState = base(3);
    s = applyTradeEvent(s, { type: 'leg-opened', venue: 'binance', fill: fill('R3-b', '60000') }, new Date());
    s = applyTradeEvent(s, { type: 'leg-opened', venue: 'deriv', fill: fill('R3-d', '60600') }, new Date());
    await m.store.insert(s);
    m.quote('BTC/USDT', 60_000, 0.009);
    await m.engine.start();
    // it counts against exposure and blocks a second BTC trade
    expect(m.engine.decisions.committedOf('u').toFixed()).toBe('250');
    expect(await m.engine.createManualTrade('u', 'BTC/USDT', 20)).toMatchObject({ ok: false, status: 409 });
    m.quote('BTC/USDT', 60_000, 0.0001);
    const done = (await m.waitFor(tradeEvent('completed', 'u'))) as { trade: Trade };
    expect(done.trade.reason).toBe('converged');
    expect(m.binance.placed).toEqual(['R3-b-c']);
    await m.engine.stop();
  });

  it('closes the open position of a user who is no longer active', async () => {
    const m = await memoryEngine();
    let s: TradeState = base(4);
    s = applyTradeEvent(s, { type: 'leg-opened', venue: 'binance', fill: fill('R4-b', '60000') }, new Date());
    s = applyTradeEvent(s, { type: 'leg-opened', venue: 'deriv', fill: fill('R4-d', '60600') }, new Date());
    await m.store.insert(s);
    m.quote('BTC/USDT', 60_000, 0.009);
    await m.engine.start();
    const done = (await m.waitFor(tradeEvent('completed'))) as { trade: Trade };
    expect(done.trade.reason).toBe('closed by an admin');
    expect(m.binance.placed).toEqual(['R4-b-c']);
    expect(m.deriv.placed).toEqual(['R4-d-c']);
    await m.engine.stop();
  });
});
