// The path from decision to first order (issue 21): the user's credentials are read once per trade — the pre-trade
// checks read them and the opening orders go out with that read — rather than once for the checks and again for the
// orders.
import { afterEach, describe, expect, it } from 'vitest';
import type { VenueAccount } from '../../../server/venues/types';
import { memoryEngine, tradeEvent, type MemoryEngine } from './memory-engine';

let m: MemoryEngine | null = null;
afterEach(async () => {
  await m?.engine.stop();
  m = null;
});

describe('the credentials on the way to the first order', () => {
  it('are read once for a trade, and both orders go out with that account', async () => {
    let reads = 0;
    let readsAtOrders: number[] = [];
    const returned: VenueAccount[] = [];
    let trading!: () => void;
    const began = new Promise<void>((resolve) => (trading = resolve));
    m = await memoryEngine({
      account: async (userId) => {
        reads += 1;
        trading(); // the first read is the engine's fee lookup once it begins trading
        const account = { userId, credentials: {} };
        returned.push(account);
        return account;
      },
    });
    const used: VenueAccount[] = [];
    for (const venue of [m.binance, m.deriv]) {
      const openLeg = venue.openLeg.bind(venue);
      venue.openLeg = (account, order) => {
        readsAtOrders.push(reads);
        used.push(account);
        return openLeg(account, order);
      };
    }
    m.users.set('alice');
    m.quote('BTC/USDT', 60_000, 0, Date.now());
    m.quote('ETH/USDT', 3_000, 0, Date.now());
    await m.engine.start({ logger: m.logger });
    await began;
    await m.engine.idle();
    reads = 0;
    returned.length = 0;
    readsAtOrders = [];

    m.quote('BTC/USDT', 60_000, 0.008, Date.now());
    await m.waitFor(tradeEvent('pending', 'alice'));
    await m.engine.idle();
    expect(m.binance.placed).toHaveLength(1);
    expect(m.deriv.placed).toHaveLength(1);
    expect(readsAtOrders).toEqual([1, 1]);
    expect(used).toEqual([returned[0], returned[0]]);
    expect(used[0]).toBe(returned[0]);
  });
});
