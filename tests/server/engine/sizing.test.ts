// Limits the balances cannot fund (issue 20, finding 9): a user whose maxExposure is far above what Binance holds
// trades at what the balances fund, fees included, instead of being refused every 30 s.
import { afterEach, describe, expect, it } from 'vitest';
import type { Trade } from '../../../contract/entities';
import type { EngineEvent } from '../../../server/engine/events';
import { InMemoryPaperBook } from '../../../server/venues/sim/paper-book';
import { memoryEngine, tradeEvent, type MemoryEngine } from './memory-engine';

let m: MemoryEngine | null = null;
afterEach(async () => {
  await m?.engine.stop();
  m = null;
});

const tradeOf = (e: EngineEvent): Trade => (e as { trade: Trade }).trade;

describe('sizing a trade by what the balances fund', () => {
  it('a Deriv-rich, Binance-poor user opens a smaller trade at once', async () => {
    const clock = { now: 1_800_000_000_000 };
    const book = new InMemoryPaperBook({
      binance: { USDT: '300', BTC: '0', ETH: '0' },
      deriv: { USDT: '100000', BTC: '0', ETH: '0' },
    });
    m = await memoryEngine({ now: () => clock.now }, book);
    // 25 % of 40,000: a 10,000 USDT trade, which Binance's 300 USDT cannot fund
    m.users.set('dee', { maxExposure: '40000' });
    m.quote('BTC/USDT', 60_000, 0, clock.now);
    await m.engine.start({ logger: m.logger });
    clock.now += 1000;
    m.quote('BTC/USDT', 60_000, 0.012, clock.now);
    const opened = tradeOf(await m.waitFor(tradeEvent('pending', 'dee')));
    // 300 / 1.001 (Binance's taker fee), in whole cents
    expect(opened.totalAmount).toBe(299.7);
    expect(m.logs.filter((l) => l.obj['event'] === 'pretrade_refused')).toEqual([]);
    expect(m.logs.find((l) => l.obj['event'] === 'sized_down')?.obj).toMatchObject({ from: '10000', to: '299.7' });
    // both legs fill: Binance spent what it held, within its fee
    const filled = tradeOf(
      await m.waitFor((e) => tradeEvent('pending', 'dee')(e) && tradeOf(e).legs.every((l) => l.status === 'open')),
    );
    expect(filled.totalAmount).toBe(299.7);
    expect(Number((await book.balances('dee', 'binance')).USDT)).toBeLessThan(1);
  });

  it('a manual trade keeps the size asked for, and is refused when the balances cannot fund it', async () => {
    const clock = { now: 1_800_000_000_000 };
    const book = new InMemoryPaperBook({
      binance: { USDT: '300', BTC: '0', ETH: '0' },
      deriv: { USDT: '100000', BTC: '0', ETH: '0' },
    });
    m = await memoryEngine({ now: () => clock.now }, book);
    m.users.set('eve', { maxExposure: '40000', tradingEnabled: false });
    m.quote('BTC/USDT', 60_000, 0.012, clock.now);
    await m.engine.start({ logger: m.logger });
    expect(await m.engine.createManualTrade('eve', 'BTC/USDT', 1000)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not enough USDT on Binance: 1001\.00 needed with fees, 300\.00 held/),
    });
  });
});
