// Issue 9 "Safe with real money", end to end over the engine's in-memory parts: a refusing venue does not start a
// loop, maxLoss is a drawdown, stale quotes are not traded, fills are protected against price moves, the mirror case
// without coin is skipped before anything is placed, a stop-out closes the other leg, and each of these leaves one
// structured log line. The engine's clock is the test's, so back-offs and quote ages need no waiting.
import { afterEach, describe, expect, it } from 'vitest';
import type { OpportunityOutcome, SymbolPrice, Trade } from '../../../contract/entities';
import type { EngineEvent } from '../../../server/engine/events';
import { InMemoryPaperBook } from '../../../server/venues/sim/paper-book';
import { memoryEngine, tradeEvent, type MemoryEngine } from './memory-engine';

let m: MemoryEngine | null = null;
afterEach(async () => {
  await m?.engine.stop();
  m = null;
});

const tradeOf = (e: EngineEvent): Trade => (e as { trade: Trade }).trade;
const newTrades = (e: MemoryEngine) => e.events.filter((ev) => ev.type === 'new_trade').map(tradeOf);
const outcomesOf = (e: MemoryEngine) =>
  e.events
    .filter((ev) => ev.type === 'opportunity_outcome')
    .map((ev) => (ev as { outcome: OpportunityOutcome }).outcome);
const logged = (e: MemoryEngine, event: string) => e.logs.filter((l) => l.obj['event'] === event);

/** An engine on the test's clock, with a richer paper seed when a test trades large notionals. */
async function engineAt(seed?: ConstructorParameters<typeof InMemoryPaperBook>[0], params = {}) {
  const clock = { now: 1_800_000_000_000 };
  const e = await memoryEngine({ now: () => clock.now, params }, seed ? new InMemoryPaperBook(seed) : undefined);
  m = e;
  return { e, clock };
}

describe('safe with real money (issue 9)', () => {
  it('finding 1: a venue that refuses every order gives a few failed trades, then a pause with a notice and a log line', async () => {
    const { e, clock } = await engineAt();
    e.users.set('ana');
    e.binance.always = { kind: 'insufficient' };
    e.quote('BTC/USDT', 60_000, 0, clock.now);
    await e.engine.start({ logger: e.logger });
    // A dislocation every second for two minutes: without a breaker, each tick would open (and fail) another trade.
    for (let i = 0; i < 120; i += 1) {
      clock.now += 1000;
      e.quote('BTC/USDT', 60_000, 0.01, clock.now);
      await e.engine.idle();
    }
    const failed = e.events.filter(tradeEvent('failed', 'ana')).length;
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThanOrEqual(3);
    const notice = await e.waitFor((ev) => ev.type === 'notice' && ev.userId === 'ana');
    expect(notice).toMatchObject({
      notice: {
        level: 'warning',
        message: expect.stringMatching(
          /^Trading paused: Binance refused the order — insufficient USDT \(3 failed trades in a row\)/,
        ),
        user: { tradingEnabled: false },
      },
    });
    expect(e.users.stops).toEqual([
      { userId: 'ana', reason: 'Binance refused the order — insufficient USDT (3 failed trades in a row)' },
    ]);
    expect((await e.users.settings('ana'))?.tradingEnabled).toBe(false);
    await e.waitFor((ev) => ev.type === 'stats_updated' && ev.userId === 'ana');
    // finding 10: one structured line per refused order, per unwind and for the pause
    expect(logged(e, 'order_refused')).toHaveLength(failed);
    expect(logged(e, 'order_refused')[0]?.obj).toMatchObject({
      venue: 'binance',
      userId: 'ana',
      reason: 'Binance refused the order — insufficient USDT',
    });
    expect(logged(e, 'unwind')).toHaveLength(failed);
    expect(logged(e, 'pause')).toHaveLength(1);
  });

  it('finding 3: stops a user who is up 86 once a loss takes realised P&L maxLoss below its peak', async () => {
    const { e, clock } = await engineAt({
      binance: { USDT: '100000', BTC: '0', ETH: '0' },
      deriv: { USDT: '100000', BTC: '0', ETH: '0' },
    });
    e.users.set('bea', { maxLoss: '2', maxExposure: '40000' });
    e.quote('BTC/USDT', 60_000, 0, clock.now);
    await e.engine.start({ logger: e.logger });
    clock.now += 1000;
    e.quote('BTC/USDT', 60_000, 0.012, clock.now);
    await e.waitFor((ev) => ev.type === 'trade_updated' && tradeOf(ev).legs.every((l) => l.status === 'open'));
    clock.now += 1000;
    e.quote('BTC/USDT', 60_000, 0, clock.now);
    const won = tradeOf(await e.waitFor(tradeEvent('completed', 'bea')));
    expect(won.actualProfit).toBeGreaterThan(50);
    await e.engine.idle();
    // the next trade fails on Deriv and its Binance leg is unwound at a loss of fees and spread
    e.deriv.faults.push({ kind: 'reject' });
    clock.now += 60_000;
    e.quote('BTC/USDT', 60_000, 0.012, clock.now);
    const lost = tradeOf(await e.waitFor(tradeEvent('failed', 'bea')));
    expect(lost.actualProfit).toBeLessThan(-2);
    await e.engine.idle();
    expect(e.users.stops).toEqual([{ userId: 'bea', reason: expect.stringMatching(/^Max loss reached/) }]);
    expect(logged(e, 'halt')).toHaveLength(1);
  });

  it('finding 6: does not trade a spread against a stalled Deriv stream, and publishes the price as stale', async () => {
    const { e, clock } = await engineAt();
    e.users.set('cai');
    e.quote('BTC/USDT', 60_000, 0, clock.now);
    await e.engine.start({ logger: e.logger });
    clock.now += 5_000;
    // Deriv has gone quiet at 60,000; Binance falls 1 %: a phantom spread of +1 %.
    e.binance.push('BTC/USDT', 59_400, clock.now);
    await e.engine.idle();
    expect(newTrades(e)).toEqual([]);
    const last = e.events
      .filter((ev) => ev.type === 'priceUpdate')
      .map((ev) => (ev as { price: SymbolPrice }).price)
      .at(-1);
    expect(last).toMatchObject({
      symbol: 'BTC/USDT',
      stale: true,
      arbitrage: { profitable: false },
      ageMs: { binance: 0, deriv: 5_000 },
    });
    expect(outcomesOf(e)).toContainEqual(
      expect.objectContaining({ symbol: 'BTC/USDT', outcome: 'quote_stale', reason: 'Deriv has not quoted for 5.0 s' }),
    );
    expect(e.engine.prices(0.002)['BTC/USDT']?.stale).toBe(true);
    expect(await e.engine.createManualTrade('cai', 'BTC/USDT', 100)).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringMatching(/Deriv has not quoted/),
    });
  });

  it('finding 6: a manual trade between two Deriv ticks waits for the next one instead of refusing the pair as apart', async () => {
    const { e, clock } = await engineAt();
    e.users.set('cid', { tradingEnabled: false });
    e.quote('BTC/USDT', 60_000, 0, clock.now);
    await e.engine.start({ logger: e.logger });
    // Binance has quoted 600 ms after Deriv's last tick: the pair is further apart than the 200 ms skew limit.
    clock.now += 600;
    e.binance.push('BTC/USDT', 60_000, clock.now);
    await e.engine.idle();
    const asked = e.engine.createManualTrade('cid', 'BTC/USDT', 100);
    await new Promise((r) => setTimeout(r, 20));
    expect(newTrades(e)).toEqual([]);
    clock.now += 400;
    e.quote('BTC/USDT', 60_000, 0.001, clock.now);
    expect(await asked).toMatchObject({ ok: true, trade: { symbol: 'BTC/USDT' } });
  });

  it('finding 7: refuses a fill beyond the decision price plus tolerance and unwinds the other leg', async () => {
    const { e, clock } = await engineAt();
    e.users.set('dan');
    e.quote('ETH/USDT', 3_000, 0, clock.now);
    await e.engine.start({ logger: e.logger });
    let release: () => void = () => undefined;
    e.binance.faults.push({ kind: 'hang', release: new Promise<void>((r) => (release = r)) });
    clock.now += 1000;
    e.quote('ETH/USDT', 3_000, 0.01, clock.now);
    await e.waitFor((ev) => ev.type === 'new_trade' && ev.userId === 'dan');
    // Binance's ask jumps 0.5 % while the order is on its way: beyond the 0.1 % the decision allows.
    e.binance.push('ETH/USDT', 3_015, clock.now);
    release();
    const failed = tradeOf(await e.waitFor(tradeEvent('failed', 'dan')));
    expect(failed.reason).toMatch(/^Binance refused the order — price moved beyond the limit/);
    expect(failed.legs.map((l) => [l.venue, l.status])).toEqual([
      ['binance', 'failed'],
      ['deriv', 'unwound'],
    ]);
  });

  it('finding 1 (mirror): skips the mirror case when the coin to sell is not held: no trade row, no order', async () => {
    const { e, clock } = await engineAt({
      binance: { USDT: '10000', BTC: '0', ETH: '0.001' }, // 3 USDT of ETH: below the smallest trade
      deriv: { USDT: '10000', BTC: '0', ETH: '0' },
    });
    e.users.set('eve');
    e.quote('ETH/USDT', 3_000, 0, clock.now);
    await e.engine.start({ logger: e.logger });
    for (let i = 0; i < 30; i += 1) {
      clock.now += 1000;
      e.quote('ETH/USDT', 3_000, -0.01, clock.now); // Binance rich: sell ETH on Binance, which eve does not hold
      await e.engine.idle();
    }
    expect(newTrades(e)).toEqual([]);
    expect(e.binance.placed).toEqual([]);
    expect(e.deriv.placed).toEqual([]);
    expect(outcomesOf(e)).toContainEqual(
      expect.objectContaining({
        outcome: 'pretrade_failed',
        reason: expect.stringMatching(/^not enough ETH on Binance for the mirror sell/),
      }),
    );
    expect(e.users.stops).toEqual([]);
  });

  it('finding 7: a stop-out on Deriv closes the Binance leg at once and is recorded on the trade', async () => {
    const { e, clock } = await engineAt();
    e.users.set('fox');
    e.quote('BTC/USDT', 60_000, 0, clock.now);
    await e.engine.start({ logger: e.logger });
    clock.now += 1000;
    e.quote('BTC/USDT', 60_000, 0.01, clock.now);
    const open = tradeOf(
      await e.waitFor((ev) => ev.type === 'trade_updated' && tradeOf(ev).legs.every((l) => l.status === 'open')),
    );
    const contract = open.legs.find((l) => l.venue === 'deriv')?.venueOrderId as string;
    await e.deriv.stopOut(contract);
    const done = tradeOf(await e.waitFor(tradeEvent('completed', 'fox')));
    expect(done.reason).toBe('stopped out by the venue');
    expect(done.legs.map((l) => [l.venue, l.status])).toEqual([
      ['binance', 'closed'],
      ['deriv', 'closed'],
    ]);
    expect(e.binance.placed).toEqual([`${done.tradeId}-b`, `${done.tradeId}-b-c`]);
    expect(logged(e, 'stop_out')).toEqual([
      expect.objectContaining({ obj: expect.objectContaining({ tradeId: done.tradeId, venue: 'deriv' }) }),
    ]);
  });
});
