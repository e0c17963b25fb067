// Builds the engine the process runs: venues (sim or live), the database paper book and trade store, the users'
// settings, and the engine itself. The process starts it with its logger (and, on PostgreSQL, the advisory-lock
// leadership, or the engine shards' locks with ENGINE_SHARDS above 1) once the app is listening, and stops it on
// shutdown.
import type { VenueId } from '../../contract/domain';
import type { EngineStop } from '../../contract/trading-state';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { setVenueBalances } from '../db/repositories/balances';
import { postgresChannelFeed } from '../db/auth-changes';
import { isTradingHalted, TRADING_HALT_CHANNEL } from '../db/repositories/trading-halt';
import { flattenDone, pendingFlattens } from '../db/repositories/flatten-requests';
import { DbPaperBook } from '../db/repositories/paper-book';
import { createVenues, type Venues } from '../venues';
import type { SimParams } from '../venues/sim/params';
import type { Venue } from '../venues/types';
import { ArbitrageEngine } from './engine';
import { userStats } from './figures';
import { advisoryLockLeadership, alwaysLeader, type Leadership } from './leader';
import { shardLocks } from './shard-locks';
import type { EngineMetrics } from './metrics-port';
import type { AccountLoader, EngineLogger } from './ports';
import { SimMarketKeeper } from './storage/sim-market-keeper';
import { DbTradeStore } from './storage/trade-store';
import { DbUserDirectory } from './storage/user-directory';
import { enableSymbols } from '../venues/enabled-pairs';
import { DEFAULT_SIM_PARAMS } from '../venues/sim/params';
import { withPairs } from '../venues/sim/profiles';

export { ArbitrageEngine, type CommandResult, type DecidedTick } from './engine';
export type { EngineEvent } from './events';

export interface RunningEngine {
  engine: ArbitrageEngine;
  venues: Venues;
  /** Prices at once, trading as soon as this instance leads; everything the engine logs goes to `logger`. */
  start(logger: EngineLogger, hooks?: LeadershipHooks): Promise<void>;
  stop(): Promise<void>;
}

export interface LeadershipHooks {
  /** The shards held changed (the instance registry writes them down at once). */
  onHeld?(): void;
  /** Sharded: the locks' connection died while shards were held; the process must not trade on (run.ts exits). */
  onFenced?(): void;
}

function leadershipOf(config: Config, logger: EngineLogger, hooks: LeadershipHooks): Leadership {
  if (!config.databaseUrl) return alwaysLeader();
  if (config.engineShards <= 1) return advisoryLockLeadership({ connectionString: config.databaseUrl, logger });
  return shardLocks({
    connectionString: config.databaseUrl,
    shards: config.engineShards,
    logger,
    ...(hooks.onHeld && { onHeld: hooks.onHeld }),
    ...(hooks.onFenced && { onFenced: hooks.onFenced }),
  });
}

export interface EngineSetup {
  config: Config;
  db: Db;
  account: AccountLoader;
  /** The simulated market's parameters; the calibrated defaults when omitted. */
  simParams?: SimParams;
  /** How the engine's own stops are recorded: the trading-state owner's recorder (server/trading/engine-stops.ts). */
  recordStop: (userId: string, stop: EngineStop, reason: string) => Promise<void>;
  /** The venues as the engine trades on them; the built ones when omitted (a test slows one down). */
  tradeOn?: (venues: Venues) => Record<VenueId, Venue>;
  /** The process's metrics port (decisions by outcome, engine_busy among them). */
  metrics?: EngineMetrics;
}

export async function createEngine(setup: EngineSetup): Promise<RunningEngine> {
  const { config, db } = setup;
  enableSymbols(config.symbols);
  // The simulated market continues the path it was on before a restart (the seed draws only the moves from there).
  const saved = config.market === 'sim' ? await SimMarketKeeper.saved(db) : null;
  const venues = await createVenues(config, {
    paperBook: new DbPaperBook(db),
    seed: config.simSeed,
    // The simulated market models exactly the configured pairs (a given market's own figures kept for its pairs).
    sim: { params: withPairs(setup.simParams ?? DEFAULT_SIM_PARAMS, config.symbols), resume: saved?.state },
  });
  const keeper = venues.simMarket && new SimMarketKeeper(db, venues.simMarket);
  keeper?.builtFrom(saved?.savedAt ?? null);
  // PostgreSQL: the kill switch's changes from every instance, on a listening connection of its own (the embedded
  // database has one process, whose API sets the switch on its engine directly).
  const haltChanges = config.databaseUrl
    ? await postgresChannelFeed(config.databaseUrl, TRADING_HALT_CHANNEL)
    : undefined;
  const engine = new ArbitrageEngine({
    venues: setup.tradeOn?.(venues) ?? { binance: venues.binance, deriv: venues.deriv },
    store: new DbTradeStore(db),
    users: new DbUserDirectory(db, setup.recordStop),
    account: setup.account,
    metrics: setup.metrics,
    halted: () => isTradingHalted(db),
    ...(haltChanges && { haltChanges }),
    flattens: { pending: () => pendingFlattens(db), done: (userId) => flattenDone(db, userId) },
    params: {
      maxHoldMs: config.tradeMaxHoldMs,
      quoteMaxAgeMs: config.quoteMaxAgeMs,
      quoteMaxSkewMs: config.quoteMaxSkewMs,
    },
    figures: {
      stats: (userId, prices) => userStats(db, userId, prices),
      // Live balances are read from the venues; the simulated ones are the paper book's rows already.
      ...(config.market === 'live' && {
        saveBalances: (userId, venue, amounts) => setVenueBalances(db, userId, venue, amounts),
      }),
    },
  });
  return {
    engine,
    venues,
    start: (logger, hooks = {}) => {
      const leadership = leadershipOf(config, logger, hooks);
      return engine.start({ logger, leadership: keeper ? keeper.around(leadership, logger) : leadership });
    },
    stop: async () => {
      await engine.stop();
      await haltChanges?.close();
      await venues.close();
    },
  };
}
