// An engine over in-memory parts: scripted venues, an in-memory paper book, trade store and user directory.
import { ArbitrageEngine, type EngineDeps } from '../../../server/engine/engine';
import type { EngineEvent } from '../../../server/engine/events';
import type { EngineLogger } from '../../../server/engine/ports';
import { InMemoryPaperBook } from '../../../server/venues/sim/paper-book';
import type { PaperBook } from '../../../server/venues/types';
import { fixedFigures, MemoryTradeStore, MemoryUsers } from '../../../tools/doubles/memory-engine-parts';
import { ScriptedVenue } from '../../../tools/doubles/scripted-venue';
import { eventLog } from './event-log';

export interface MemoryEngine {
  engine: ArbitrageEngine;
  binance: ScriptedVenue;
  deriv: ScriptedVenue;
  store: MemoryTradeStore;
  users: MemoryUsers;
  book: PaperBook;
  events: EngineEvent[];
  /** Pushes both venues' mids for a symbol (deriv = binance × (1 + spread)), stamped `at` (now by default). */
  quote(symbol: 'BTC/USDT' | 'ETH/USDT', binanceMid: number, spread: number, at?: number): void;
  /** Resolves when an event matching the predicate has been seen (past or future). */
  waitFor(predicate: (e: EngineEvent) => boolean): Promise<EngineEvent>;
  /** Every line the engine logged, as level and object. */
  logs: { level: 'info' | 'warn' | 'error'; obj: Record<string, unknown>; msg?: string }[];
  logger: EngineLogger;
}

export async function memoryEngine(
  overrides: Partial<EngineDeps> = {},
  book: PaperBook = new InMemoryPaperBook(),
): Promise<MemoryEngine> {
  const binance = new ScriptedVenue('binance', book);
  const deriv = new ScriptedVenue('deriv', book);
  const store = new MemoryTradeStore();
  const users = new MemoryUsers(store);
  const logs: MemoryEngine['logs'] = [];
  const line = (level: 'info' | 'warn' | 'error') => (obj: object | string, msg?: string) =>
    void logs.push({ level, obj: typeof obj === 'string' ? { msg: obj } : (obj as Record<string, unknown>), msg });
  const logger: EngineLogger = { info: line('info'), warn: line('warn'), error: line('error') };
  const engine = new ArbitrageEngine({
    venues: { binance, deriv },
    store,
    users,
    account: async (userId) => ({ userId, credentials: {} }),
    figures: fixedFigures(),
    housekeepingMs: 20,
    ...overrides,
  });
  const { events, waitFor } = eventLog(engine.events$);
  return {
    engine,
    binance,
    deriv,
    store,
    users,
    book,
    events,
    logs,
    logger,
    quote: (symbol, mid, spread, at) => {
      binance.push(symbol, mid, at);
      deriv.push(symbol, mid * (1 + spread), at);
    },
    waitFor,
  };
}

export const tradeEvent = (status: string, userId?: string) => (e: EngineEvent) =>
  (e.type === 'trade_updated' || e.type === 'new_trade') &&
  e.trade.status === status &&
  (userId === undefined || e.userId === userId);
