// The simulated market's state on the database (sim_market): the instance that trades saves it; an instance that
// takes over the leadership (a failover) continues from what the last leader saved, not from the path its own
// market ran while it stood by.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSimMarket } from '../../../server/db/repositories/sim-market';
import type { Leadership, LeadershipHandlers } from '../../../server/engine/leader';
import { SILENT_LOGGER } from '../../../server/engine/ports';
import { SimMarketKeeper } from '../../../server/engine/storage/sim-market-keeper';
import { SimMarket } from '../../../server/venues/sim/market';
import { backends, openTestDatabase, type TestDatabase } from '../helpers/database';

/** A leadership the test hands over by hand. */
function manualLeadership() {
  let handlers: LeadershipHandlers | null = null;
  const leadership: Leadership = {
    shards: 1,
    start: async (h) => {
      handlers = h;
    },
    stop: async () => undefined,
  };
  return { leadership, acquire: () => handlers!.onAcquired([0]), lose: () => handlers!.onLost([0]) };
}

const btcMid = (m: SimMarket) => {
  const q = m.latest('binance', 'BTC/USDT');
  return (q.bid + q.ask) / 2;
};

describe.each(backends)('simulated market state on %s', (backend) => {
  let database: TestDatabase | null = null;
  const dir = mkdtempSync(join(tmpdir(), 'arb-sim-keeper-'));
  afterEach(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a standby taking over continues the leader’s saved path; the leader saves on shutdown', async () => {
    database = await openTestDatabase(backend, dir);
    const { db } = database;
    const leaderMarket = new SimMarket({ seed: 1 });
    const leader = new SimMarketKeeper(db, leaderMarket);
    const leaderLock = manualLeadership();
    const wrapped = leader.around(leaderLock.leadership, SILENT_LOGGER);
    await wrapped.start({ onAcquired: () => undefined, onLost: () => undefined, drain: async () => undefined });
    await leaderLock.acquire();
    for (let i = 0; i < 300; i += 1) leaderMarket.step();
    await wrapped.stop(); // shutdown: the last state is saved before the lock goes
    const saved = await loadSimMarket(db);
    expect(saved.savedAt).not.toBeNull();
    expect(saved.state['BTC/USDT']?.latent).toBe(leaderMarket.snapshot()['BTC/USDT']!.latent);

    // The standby's market ran a path of its own; taking over, it continues the leader's.
    const standbyMarket = new SimMarket({ seed: 2 });
    for (let i = 0; i < 300; i += 1) standbyMarket.step();
    expect(Math.abs(btcMid(standbyMarket) / btcMid(leaderMarket) - 1)).toBeGreaterThan(0.001);
    const standby = new SimMarketKeeper(db, standbyMarket);
    const standbyLock = manualLeadership();
    let tradingBegan = false;
    await standby
      .around(standbyLock.leadership, SILENT_LOGGER)
      .start({ onAcquired: () => void (tradingBegan = true), onLost: () => undefined, drain: async () => undefined });
    await standbyLock.acquire();
    expect(tradingBegan).toBe(true);
    expect(btcMid(standbyMarket)).toBe(btcMid(leaderMarket));
    standbyLock.lose();
  });
});
