// Builds the engine the process runs: venues (sim or live), the database paper book and trade store, the users'
// settings, the leadership (advisory lock on PostgreSQL), and the engine itself. main.ts starts and stops it.
import type { Config } from '../config';
import type { Db } from '../db/client';
import { setVenueBalances } from '../db/repositories/balances';
import { DbPaperBook } from '../db/repositories/paper-book';
import { computeStats } from '../db/repositories/stats';
import { DbTradeStore } from '../db/repositories/trade-writes';
import { createVenues, type Venues } from '../venues';
import { simParams, type SimParams } from '../venues/sim/params';
import type { Venue } from '../venues/types';
import { ArbitrageEngine } from './engine';
import { advisoryLockLeadership, alwaysLeader } from './leader';
import type { AccountLoader, EngineLogger } from './ports';
import { DbUserDirectory } from './user-directory';

export { ArbitrageEngine, type CommandResult } from './engine';
export type { EngineEvent } from './events';

export interface RunningEngine {
  engine: ArbitrageEngine;
  venues: Venues;
  stop(): Promise<void>;
}

export interface EngineSetup {
  config: Config;
  db: Db;
  account: AccountLoader;
  logger: EngineLogger;
  env?: Record<string, string | undefined>;
}

/**
 * SIM_TEST_DISLOCATION=1 (tests only): dislocations arrive within a second or two and stay wide for a while, so a
 * test sees a trade open quickly instead of waiting a minute for the market.
 */
export function simParamsFromEnv(env: Record<string, string | undefined>): SimParams | undefined {
  if (env.SIM_TEST_DISLOCATION !== '1') return undefined;
  return simParams({
    dislocation: { perMinute: 20, size: [0.008, 0.012], widenProbability: 0, stickyProbability: 0, halfLifeSeconds: [20, 30] },
  });
}

/**
 * SIM_TEST_DERIV_OPEN_DELAY_MS (tests only): Deriv opening orders reach the venue that much later than Binance's,
 * so a crash test can kill the process between the two legs' fills.
 */
function delayedDerivOpens(venue: Venue, env: Record<string, string | undefined>): Venue {
  const ms = Number(env.SIM_TEST_DERIV_OPEN_DELAY_MS ?? 0);
  if (!(ms > 0)) return venue;
  return {
    id: venue.id,
    quotes: (symbol) => venue.quotes(symbol),
    takerFeeRate: (account) => venue.takerFeeRate(account),
    balances: (account) => venue.balances(account),
    openLeg: async (account, order) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return venue.openLeg(account, order);
    },
    closeLeg: (account, order) => venue.closeLeg(account, order),
    findOrder: (account, symbol, id) => venue.findOrder(account, symbol, id),
    testConnection: (account) => venue.testConnection(account),
    close: () => venue.close(),
  };
}

export async function createEngine(setup: EngineSetup): Promise<RunningEngine> {
  const { config, db, logger } = setup;
  const paperBook = new DbPaperBook(db);
  const venues = createVenues(config, {
    paperBook,
    seed: config.simSeed,
    sim: { params: simParamsFromEnv(setup.env ?? process.env) },
  });
  const leadership = config.databaseUrl
    ? advisoryLockLeadership({ connectionString: config.databaseUrl, logger })
    : alwaysLeader();
  let engineRef: ArbitrageEngine | null = null;
  const engine = new ArbitrageEngine({
    venues: { binance: venues.binance, deriv: delayedDerivOpens(venues.deriv, setup.env ?? process.env) },
    store: new DbTradeStore(db),
    users: new DbUserDirectory(db),
    account: setup.account,
    leadership,
    logger,
    params: { maxHoldMs: config.tradeMaxHoldMs },
    figures: {
      stats: (userId) => computeStats(db, userId, engineRef ?? { mid: () => null }),
      // Live balances are read from the venues; the simulated ones are the paper book's rows already.
      ...(config.market === 'live' && { saveBalances: (userId, venue, amounts) => setVenueBalances(db, userId, venue, amounts) }),
    },
  });
  engineRef = engine;
  return {
    engine,
    venues,
    stop: async () => {
      await engine.stop();
      await venues.close();
    },
  };
}

/** The engine logs through the app's logger, which exists only once the app is built. */
export function lazyLogger(get: () => EngineLogger | undefined): EngineLogger {
  return {
    info: (obj, msg) => get()?.info(obj, msg),
    warn: (obj, msg) => get()?.warn(obj, msg),
    error: (obj, msg) => get()?.error(obj, msg),
  };
}
