// The engine end to end over in-memory parts: decisions, execution, failures, limits, events.
import Decimal from 'decimal.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Trade } from '../../../contract/entities';
import type { EngineEvent } from '../../../server/engine/events';
import { memoryEngine, tradeEvent, type MemoryEngine } from './memory-engine';

const tradeOf = (e: EngineEvent): Trade => (e as { trade: Trade }).trade;
let m: MemoryEngine | null = null;
afterEach(async () => {
  await m?.engine.stop();
  m = null;
});

async function started(setup?: (m: MemoryEngine) => void): Promise<MemoryEngine> {
  m = await memoryEngine();
  setup?.(m);
  m.quote('BTC/USDT', 60_000, 0);
  m.quote('ETH/USDT', 3_000, 0);
  await m.engine.start({ logger: m.logger });
  return m;
}

describe('arbitrage engine', () => {
  it('opens on a dislocation beyond costs, closes on convergence, and reports profit from the fills', async () => {
    const e = await started((m) => m.users.set('alice'));
    e.quote('BTC/USDT', 60_000, 0.001); // below break-even: nothing
    e.quote('BTC/USDT', 60_000, 0.008);
    const opened = tradeOf(
      await e.waitFor((ev) => ev.type === 'trade_updated' && tradeOf(ev).legs.every((l) => l.status === 'open')),
    );
    expect(opened).toMatchObject({
      userId: 'alice',
      symbol: 'BTC/USDT',
      status: 'pending',
      totalAmount: 250,
      origin: 'auto',
    });
    expect(opened.legs.map((l) => [l.venue, l.side])).toEqual([
      ['binance', 'buy'],
      ['deriv', 'sell'],
    ]);
    expect(e.events.find((ev) => ev.type === 'arbitrage_opportunity')).toMatchObject({
      opportunity: { pair: 'BTC/USDT', direction: 'deriv-rich' },
    });
    e.quote('BTC/USDT', 60_000, 0.0002);
    const done = tradeOf(await e.waitFor(tradeEvent('completed', 'alice')));
    expect(done.reason).toBe('converged');
    const state = [...e.store.states.values()][0];
    // recompute: Σ legs' PnL − fees
    let expected = new Decimal(0);
    for (const leg of state?.legs ?? []) {
      const o = new Decimal(leg.open?.price ?? 0).times(leg.open?.quantity ?? 0);
      const c = new Decimal(leg.close?.price ?? 0).times(leg.close?.quantity ?? 0);
      expected = expected
        .plus(leg.side === 'buy' ? c.minus(o) : o.minus(c))
        .minus(leg.open?.fee ?? 0)
        .minus(leg.close?.fee ?? 0);
    }
    expect(done.actualProfit).toBeCloseTo(expected.toNumber(), 8);
    expect(done.actualProfit).toBeGreaterThan(0);
    await e.waitFor((ev) => ev.type === 'balance_updated' && ev.userId === 'alice');
    await e.waitFor((ev) => ev.type === 'stats_updated' && ev.userId === 'alice');
    expect(e.binance.placed).toEqual([`${done.tradeId}-b`, `${done.tradeId}-b-c`]);
    expect(e.deriv.placed).toEqual([`${done.tradeId}-d`, `${done.tradeId}-d-c`]);
  });

  it('does not trade below the user minSpread even when costs are covered', async () => {
    const e = await started((m) => m.users.set('carol', { minSpread: '0.02' }));
    e.quote('BTC/USDT', 60_000, 0.01);
    e.quote('BTC/USDT', 60_000, 0.015);
    await e.engine.idle();
    expect(e.events.filter((ev) => ev.type === 'new_trade')).toEqual([]);
  });

  it('unwinds the filled leg at once when the other leg fails, and marks the trade failed with the reason', async () => {
    const e = await started((m) => m.users.set('bob'));
    e.deriv.faults.push({ kind: 'reject' });
    e.quote('ETH/USDT', 3_000, -0.01);
    const failed = tradeOf(await e.waitFor(tradeEvent('failed', 'bob')));
    expect(failed.reason).toBe('Deriv refused the order — scripted refusal');
    expect(failed.legs.map((l) => [l.venue, l.status])).toEqual([
      ['binance', 'unwound'],
      ['deriv', 'failed'],
    ]);
    expect(e.binance.placed).toEqual([`${failed.tradeId}-b`, `${failed.tradeId}-b-c`]);
    expect(failed.actualProfit).toBeLessThan(0); // the unwind cost fees and the spread
  });

  it('asks the venue after an unknown outcome instead of placing twice', async () => {
    const e = await started((m) => m.users.set('dan'));
    e.binance.faults.push({ kind: 'unknown-after-fill' });
    e.deriv.faults.push({ kind: 'unknown-before-fill' });
    e.quote('BTC/USDT', 60_000, 0.01);
    const open = tradeOf(
      await e.waitFor((ev) => ev.type === 'trade_updated' && tradeOf(ev).legs.every((l) => l.status === 'open')),
    );
    // binance: placed once, found by findOrder; deriv: not found, so placed again with the same id
    expect(e.binance.placed).toEqual([`${open.tradeId}-b`]);
    expect(e.deriv.placed).toEqual([`${open.tradeId}-d`, `${open.tradeId}-d`]);
    expect(await e.book.findOrder('dan', 'deriv', `${open.tradeId}-d`)).not.toBeNull();
  });

  it('stops a user at maxLoss: halt recorded, notice sent, no new trade after', async () => {
    const e = await started((m) => m.users.set('erin', { maxLoss: '0.5' }));
    e.quote('BTC/USDT', 60_000, 0.01);
    await e.waitFor((ev) => ev.type === 'trade_updated' && tradeOf(ev).legs.every((l) => l.status === 'open'));
    // the spread widens past the stop: the trade closes at a loss bigger than maxLoss
    e.quote('BTC/USDT', 60_000, 0.03);
    const closed = tradeOf(await e.waitFor(tradeEvent('completed', 'erin')));
    expect(closed.reason).toBe('stop: spread widened');
    expect(closed.actualProfit).toBeLessThan(-0.5);
    const notice = await e.waitFor((ev) => ev.type === 'notice' && ev.userId === 'erin');
    expect(notice).toMatchObject({
      notice: { level: 'warning', message: expect.stringMatching(/^Automated trading is halted: Max loss reached/) },
    });
    expect(e.users.stops).toEqual([{ userId: 'erin', reason: expect.stringMatching(/^Max loss reached/) }]);
    const before = e.events.filter((ev) => ev.type === 'new_trade').length;
    e.quote('ETH/USDT', 3_000, 0.02);
    e.quote('BTC/USDT', 60_000, 0.0);
    e.quote('BTC/USDT', 60_000, 0.02);
    await e.engine.idle();
    expect(e.events.filter((ev) => ev.type === 'new_trade').length).toBe(before);
    const manual = await e.engine.createManualTrade('erin', 'ETH/USDT', 50);
    expect(manual).toMatchObject({ ok: false, status: 409, message: expect.stringMatching(/Trading is stopped/) });
  });

  it('applies the same limits to manual trades and cancels an open one with profit realised', async () => {
    const e = await started((m) => m.users.set('fay', { tradingEnabled: false, maxExposure: '300' }));
    expect(await e.engine.createManualTrade('fay', 'BTC/USDT', 400)).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringMatching(/max exposure of 300/),
    });
    expect(await e.engine.createManualTrade('fay', 'BTC/USDT', 5)).toMatchObject({ ok: false, status: 400 });
    const first = await e.engine.createManualTrade('fay', 'BTC/USDT', 200);
    expect(first).toMatchObject({ ok: true, trade: { status: 'pending', origin: 'manual', totalAmount: 200 } });
    expect(await e.engine.createManualTrade('fay', 'BTC/USDT', 50)).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringMatching(/already have an open BTC\/USDT/),
    });
    // the first is still in flight or open: it counts against exposure
    expect(await e.engine.createManualTrade('fay', 'ETH/USDT', 150)).toMatchObject({ ok: false, status: 409 });
    if (!first.ok) throw new Error('unreachable');
    await e.waitFor(
      (ev) =>
        ev.type === 'trade_updated' &&
        tradeOf(ev)._id === first.trade._id &&
        tradeOf(ev).legs.every((l) => l.status === 'open'),
    );
    expect(await e.engine.cancelTrade('someone-else', first.trade._id)).toMatchObject({ ok: false, status: 404 });
    const cancel = await e.engine.cancelTrade('fay', first.trade._id);
    expect(cancel.ok).toBe(true);
    const cancelled = tradeOf(await e.waitFor(tradeEvent('completed', 'fay')));
    expect(cancelled.reason).toBe('closed by you');
    expect(cancelled.legs.every((l) => l.status === 'closed' && l.close !== null)).toBe(true);
    // exposure released: a new manual trade fits again
    expect(await e.engine.createManualTrade('fay', 'ETH/USDT', 150)).toMatchObject({ ok: true });
  });

  it('closes on the time limit when the spread never converges', async () => {
    m = await memoryEngine({ params: { maxHoldMs: 50 } });
    m.users.set('gus');
    m.quote('BTC/USDT', 60_000, 0);
    await m.engine.start();
    m.quote('BTC/USDT', 60_000, 0.01);
    const done = tradeOf(await m.waitFor(tradeEvent('completed', 'gus')));
    expect(done.reason).toBe('time limit');
  });
});
