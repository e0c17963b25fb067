// The decision's deadline (issue 21): a decision whose quotes age past it sends nothing, wherever the engine was held
// up (the pre-trade reads, the write-ahead insert), and a manual trade past it is refused; a decision in time trades.
// The engine's clock is the test's: time passes only when the test moves it.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TRADING_PARAMS } from '../../../server/engine/costs';
import { ENGINE_BUSY, sendDeadline } from '../../../server/engine/deadline';
import type { EngineEvent } from '../../../server/engine/events';
import type { Quote } from '../../../server/venues/types';
import { MemoryTradeStore } from '../../../tools/doubles/memory-engine-parts';
import { memoryEngine, tradeEvent, type MemoryEngine } from './memory-engine';

let m: MemoryEngine | null = null;
afterEach(async () => {
  await m?.engine.stop();
  m = null;
});

const T0 = 1_800_000_000_000;
const quote = (venue: Quote['venue'], ts: number): Quote => ({ venue, symbol: 'BTC/USDT', bid: 1, ask: 2, ts });
const busy = (e: EngineEvent) => e.type === 'opportunity_outcome' && e.outcome.outcome === 'engine_busy';

/** A gate the test opens: what waits on it is held until then. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('sendDeadline', () => {
  const params = { quoteMaxAgeMs: 2000, derivQuoteEveryMs: 1000, orderLeadMs: 100 };
  it("is before Deriv's next tick, less the order's lead, when both quotes are new", () => {
    expect(sendDeadline(quote('binance', T0), quote('deriv', T0), params)).toBe(T0 + 900);
  });
  it('is when the older quote stops being fresh, if that comes first', () => {
    expect(sendDeadline(quote('binance', T0 - 1500), quote('deriv', T0), params)).toBe(T0 + 500);
  });
});

describe('a decision past its deadline', () => {
  let clock = T0;
  const engineAt = async (overrides: Parameters<typeof memoryEngine>[0] = {}) => {
    clock = T0;
    m = await memoryEngine({ now: () => clock, ...overrides });
    m.users.set('alice');
    m.quote('BTC/USDT', 60_000, 0, clock);
    m.quote('ETH/USDT', 3_000, 0, clock);
    await m.engine.start({ logger: m.logger });
    return m;
  };

  it('held up in the pre-trade reads: nothing is written or sent, the user is told, and trades on fresh quotes', async () => {
    const reads = gate();
    let hold = false;
    const e = await engineAt({
      account: async (userId) => {
        if (hold) await reads.opened;
        return { userId, credentials: {} };
      },
    });
    hold = true;
    e.quote('BTC/USDT', 60_000, 0.008, clock);
    clock += DEFAULT_TRADING_PARAMS.derivQuoteEveryMs; // Deriv has quoted again meanwhile
    reads.open();
    await e.waitFor(busy);
    await e.engine.idle();
    expect(e.binance.placed).toEqual([]);
    expect(e.deriv.placed).toEqual([]);
    expect(e.store.states.size).toBe(0);
    expect(e.logs.some((l) => l.obj.event === 'engine_busy')).toBe(true);
    expect(e.engine.shedding).toBe(true);

    // In line again: the next fresh decision trades.
    hold = false;
    e.quote('BTC/USDT', 60_000, 0.009, clock);
    await e.waitFor(tradeEvent('pending', 'alice'));
    await e.engine.idle();
    expect(e.binance.placed).toHaveLength(1);
    expect(e.deriv.placed).toHaveLength(1);
  });

  it('held up in the write-ahead insert: the executor sends nothing and the trade ends cancelled', async () => {
    const insert = gate();
    const store = new MemoryTradeStore();
    const inserting = store.insert.bind(store);
    store.insert = async (state) => {
      await insert.opened;
      return inserting(state);
    };
    const e = await engineAt({ store });
    e.quote('BTC/USDT', 60_000, 0.008, clock);
    // Past the check before the insert (the insert is on its way), then the clock passes the deadline.
    await new Promise((resolve) => setImmediate(resolve));
    clock += 950;
    insert.open();
    const ended = await e.waitFor(tradeEvent('cancelled', 'alice'));
    expect(ended.type === 'trade_updated' && ended.trade.reason).toBe(ENGINE_BUSY);
    await e.waitFor(busy);
    expect(e.binance.placed).toEqual([]);
    expect(e.deriv.placed).toEqual([]);
  });

  it('refuses a manual trade that misses it with 503 and places nothing', async () => {
    const reads = gate();
    let hold = false;
    const e = await engineAt({
      account: async (userId) => {
        if (hold) await reads.opened;
        return { userId, credentials: {} };
      },
    });
    e.quote('BTC/USDT', 60_000, 0, clock);
    hold = true;
    const asked = e.engine.createManualTrade('alice', 'BTC/USDT', 100);
    await new Promise((resolve) => setImmediate(resolve));
    clock += 2_500;
    reads.open();
    const result = await asked;
    expect(result).toMatchObject({ ok: false, status: 503 });
    expect(!result.ok && result.message).toMatch(/busy/);
    expect(e.binance.placed).toEqual([]);
  });
});
