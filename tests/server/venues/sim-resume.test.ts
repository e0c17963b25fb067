// The simulated market continues a saved path: a market built (or resumed) from another's saved state quotes on from
// where that one stood, whatever its own seed, while a market under a new seed alone starts anywhere in the range.
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SimMarket } from '../../../server/venues/sim/market';

const mid = (m: SimMarket, symbol: 'BTC/USDT' | 'ETH/USDT') => {
  const q = m.latest('binance', symbol);
  return (q.bid + q.ask) / 2;
};

function ranMarket(): SimMarket {
  const m = new SimMarket({ seed: 1 });
  for (let i = 0; i < 500; i += 1) m.step();
  return m;
}

describe('simulated market across a restart', () => {
  it('a market built from a saved state continues its prices under another seed', () => {
    const before = ranMarket();
    // as stored in the sim_market table (jsonb)
    const saved = JSON.parse(JSON.stringify(before.snapshot()));
    const after = new SimMarket({ seed: 99, resume: saved });
    const fresh = new SimMarket({ seed: 99 });
    for (const symbol of ['BTC/USDT', 'ETH/USDT'] as const) {
      expect(Math.abs(mid(after, symbol) / mid(before, symbol) - 1)).toBeLessThan(0.0005);
      expect(Math.abs(mid(fresh, symbol) / mid(before, symbol) - 1)).toBeGreaterThan(0.0005);
      expect(after.latest('deriv', symbol).bid).toBeGreaterThan(0);
    }
  });

  it('resume() takes another instance’s state at once and publishes its quotes (failover)', async () => {
    const leader = ranMarket();
    const standby = new SimMarket({ seed: 5 });
    for (let i = 0; i < 50; i += 1) standby.step();
    standby.resume(JSON.parse(JSON.stringify(leader.snapshot())));
    const published = await firstValueFrom(standby.quotes('binance', 'BTC/USDT'));
    expect(published).toMatchObject({
      bid: leader.latest('binance', 'BTC/USDT').bid,
      ask: leader.latest('binance', 'BTC/USDT').ask,
    });
    standby.step();
    expect(Math.abs(mid(standby, 'ETH/USDT') / mid(leader, 'ETH/USDT') - 1)).toBeLessThan(0.0005);
  });
});
