// An engine over in-memory parts: scripted venues, an in-memory paper book, trade store and user directory.
import type { Stats } from '../../../contract/entities';
import { ArbitrageEngine, type EngineDeps } from '../../../server/engine/engine';
import type { EngineEvent } from '../../../server/engine/events';
import type { RecoverableStore, TradingSettings, UserDirectory } from '../../../server/engine/ports';
import { InMemoryTradeStore } from '../../../server/engine/store';
import { isTerminal, type TradeState } from '../../../server/engine/trade-state';
import { InMemoryPaperBook } from '../../../server/venues/sim/paper-book';
import type { PaperBook } from '../../../server/venues/types';
import { ScriptedVenue } from './scripted-venue';

export class MemoryStore extends InMemoryTradeStore implements RecoverableStore {
  async unfinished(): Promise<TradeState[]> {
    return [...this.states.values()].filter((s) => !isTerminal(s.stage));
  }
}

export class MemoryUsers implements UserDirectory {
  readonly rows = new Map<string, TradingSettings>();
  readonly halted: string[] = [];

  set(userId: string, s: Partial<TradingSettings> = {}): void {
    this.rows.set(userId, {
      userId,
      maxExposure: '1000',
      maxLoss: '100',
      minSpread: '0.002',
      tradingEnabled: true,
      tradingHaltedAt: null,
      realisedPnl: '0',
      ...this.rows.get(userId),
      ...s,
    });
  }
  async settings(userId: string) {
    return this.rows.get(userId) ?? null;
  }
  async tradingUsers() {
    return [...this.rows.values()].filter((r) => r.tradingEnabled);
  }
  async markHalted(userId: string) {
    this.halted.push(userId);
    this.set(userId, { tradingEnabled: false, tradingHaltedAt: new Date() });
  }
  async setTradingEnabled(userId: string, enabled: boolean) {
    this.set(userId, { tradingEnabled: enabled });
  }
}

export interface MemoryEngine {
  engine: ArbitrageEngine;
  binance: ScriptedVenue;
  deriv: ScriptedVenue;
  store: MemoryStore;
  users: MemoryUsers;
  book: PaperBook;
  events: EngineEvent[];
  /** Pushes both venues' mids for a symbol (deriv = binance × (1 + spread)). */
  quote(symbol: 'BTC/USDT' | 'ETH/USDT', binanceMid: number, spread: number): void;
  /** Resolves when an event matching the predicate has been seen (past or future). */
  waitFor(predicate: (e: EngineEvent) => boolean): Promise<EngineEvent>;
}

export async function memoryEngine(overrides: Partial<EngineDeps> = {}, book: PaperBook = new InMemoryPaperBook()): Promise<MemoryEngine> {
  const binance = new ScriptedVenue('binance', book);
  const deriv = new ScriptedVenue('deriv', book);
  const store = new MemoryStore();
  const users = new MemoryUsers();
  const events: EngineEvent[] = [];
  const waiters: { predicate: (e: EngineEvent) => boolean; resolve: (e: EngineEvent) => void }[] = [];
  const stats: Stats = { totalTrades: 0, successfulTrades: 0, failedTrades: 0, totalProfit: 0, netProfit: 0, winRate: 0, totalValue: 0 };
  const engine = new ArbitrageEngine({
    venues: { binance, deriv },
    store,
    users,
    account: async (userId) => ({ userId, credentials: {} }),
    figures: { stats: async () => stats },
    housekeepingMs: 20,
    ...overrides,
  });
  engine.events$.subscribe((e) => {
    events.push(e);
    for (const w of [...waiters]) {
      if (w.predicate(e)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(e);
      }
    }
  });
  return {
    engine,
    binance,
    deriv,
    store,
    users,
    book,
    events,
    quote: (symbol, mid, spread) => {
      binance.push(symbol, mid);
      deriv.push(symbol, mid * (1 + spread));
    },
    waitFor: (predicate) => {
      const seen = events.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
  };
}

export const tradeEvent = (status: string, userId?: string) => (e: EngineEvent) =>
  (e.type === 'trade_updated' || e.type === 'new_trade') && e.trade.status === status && (userId === undefined || e.userId === userId);
