// The real app on a real database with the engine over scripted venues, the database paper book, trade store and
// user directory: for route tests that need trades to happen. The engine's log lines are kept.
import { engineStopRecorder } from '../../../server/trading';
import { isTradingHalted } from '../../../server/db/repositories/trading-halt';
import { flattenDone, pendingFlattens } from '../../../server/db/repositories/flatten-requests';
import { DbPaperBook } from '../../../server/db/repositories/paper-book';
import { ArbitrageEngine, type EngineDeps } from '../../../server/engine/engine';
import type { EngineEvent } from '../../../server/engine/events';
import { userStats } from '../../../server/engine/figures';
import type { EngineLogger } from '../../../server/engine/ports';
import { DbTradeStore } from '../../../server/engine/storage/trade-store';
import { DbUserDirectory } from '../../../server/engine/storage/user-directory';
import type { TradingFacade } from '../../../server/http/plugins/engine-port';
import { ScriptedVenue } from '../../../tools/doubles/scripted-venue';
import { createTestApp, type Backend, type TestApp, type TestAppOptions } from '../helpers/app';

export interface DbEngine {
  t: TestApp;
  engine: ArbitrageEngine;
  binance: ScriptedVenue;
  deriv: ScriptedVenue;
  events: EngineEvent[];
  logs: { level: string; obj: Record<string, unknown> }[];
  /** Pushes both venues' mids for a symbol, fresh (deriv = binance × (1 + spread)). */
  quote(symbol: 'BTC/USDT' | 'ETH/USDT', binanceMid: number, spread: number): void;
  /** Waits, a few seconds at most, for something the engine writes asynchronously. */
  until(what: string, check: () => Promise<boolean>, withinMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function createDbEngine(
  backend: Backend,
  options: TestAppOptions = {},
  /** Engine parts to replace, or a function of the test app giving them (a store on its database). */
  engineDeps: Partial<EngineDeps> | ((t: TestApp) => Partial<EngineDeps>) = {},
): Promise<DbEngine> {
  const holder: { engine: ArbitrageEngine | null } = { engine: null };
  const live = () => holder.engine as ArbitrageEngine;
  // buildApp takes the engine before the database exists here, so the app gets a forwarding facade.
  const facade: TradingFacade = {
    get isTrading() {
      return holder.engine?.isTrading ?? false;
    },
    get venues() {
      return live().venues;
    },
    prices: (...a) => live().prices(...a),
    venueHealth: () => live().venueHealth(),
    recentOutcomes: (id) => live().recentOutcomes(id),
    addUser: (id) => live().addUser(id),
    removeUser: (id) => live().removeUser(id),
    refreshUser: (id) => live().refreshUser(id),
    createManualTrade: (...a) => live().createManualTrade(...a),
    cancelTrade: (...a) => live().cancelTrade(...a),
    closeUserTrades: (...a) => live().closeUserTrades(...a),
    setGlobalHalt: (halted) => live().setGlobalHalt(halted),
  };
  const t = await createTestApp(backend, { ...options, build: { engine: facade, ...options.build } });
  const book = new DbPaperBook(t.db);
  const binance = new ScriptedVenue('binance', book);
  const deriv = new ScriptedVenue('deriv', book);
  const engine = new ArbitrageEngine({
    venues: { binance, deriv },
    store: new DbTradeStore(t.db),
    users: new DbUserDirectory(t.db, engineStopRecorder(t.db)),
    account: (id) => t.app.loadVenueAccount(id),
    figures: { stats: (id, prices) => userStats(t.db, id, prices) },
    halted: () => isTradingHalted(t.db),
    flattens: { pending: () => pendingFlattens(t.db), done: (userId) => flattenDone(t.db, userId) },
    housekeepingMs: 50,
    ...(typeof engineDeps === 'function' ? engineDeps(t) : engineDeps),
  });
  holder.engine = engine;
  const events: EngineEvent[] = [];
  engine.events$.subscribe((e) => events.push(e));
  const logs: DbEngine['logs'] = [];
  const line = (level: string) => (obj: object | string) =>
    void logs.push({ level, obj: typeof obj === 'string' ? { msg: obj } : (obj as Record<string, unknown>) });
  const logger: EngineLogger = { info: line('info'), warn: line('warn'), error: line('error') };
  const quote: DbEngine['quote'] = (symbol, mid, spread) => {
    binance.push(symbol, mid);
    deriv.push(symbol, mid * (1 + spread));
  };
  quote('BTC/USDT', 60_000, 10 / 60_000);
  quote('ETH/USDT', 3_000, 0);
  await engine.start({ logger });
  return {
    t,
    engine,
    binance,
    deriv,
    events,
    logs,
    quote,
    // Event-driven where possible; this polls the database only for states the engine writes asynchronously. The
    // limit is time, not a count of turns: a loaded machine (PostgreSQL on 2 shared cores) takes longer per turn.
    until: async (what, check, withinMs = 5_000) => {
      const deadline = Date.now() + withinMs;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await engine.idle();
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    close: async () => {
      await engine.stop();
      await t.close();
    },
  };
}
