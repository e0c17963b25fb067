// The engine's storage and settings ports in memory, for the engine's tests and its benchmark: no database, every
// state kept as the engine handed it over.
import type { EngineStop } from '../../contract/trading-state';
import type { Stats, Trade } from '../../contract/entities';
import { TRADING_DEFAULTS, type VenueId } from '../../contract/domain';
import { money } from '../../server/engine/decimal';
import { EMPTY_WINDOW, foldRealised } from '../../server/engine/drawdown';
import type {
  FigureSources,
  RecoverableStore,
  StoredFailure,
  StoredWindow,
  TradingSettings,
  UserDirectory,
} from '../../server/engine/ports';
import { tradeDtoOf } from '../../server/engine/storage/trade-rows';
import { isTerminal, type TradeState } from '../../server/engine/trade-state';

export class MemoryTradeStore implements RecoverableStore {
  readonly states = new Map<string, TradeState>();

  async insert(state: TradeState): Promise<Trade> {
    if (this.states.has(state.id)) throw new Error(`Trade ${state.tradeId} exists`);
    this.states.set(state.id, state);
    return tradeDtoOf(state, new Date());
  }

  async save(state: TradeState): Promise<Trade> {
    this.states.set(state.id, state);
    return tradeDtoOf(state, new Date());
  }

  async unfinished(): Promise<TradeState[]> {
    return [...this.states.values()].filter((s) => !isTerminal(s.stage));
  }

  async claimedOrderIds(venue: VenueId, since: Date): Promise<Set<string>> {
    const ids = new Set<string>();
    for (const s of this.states.values()) {
      if (s.createdAt < since) continue;
      for (const leg of s.legs) if (leg.venue === venue && leg.venueOrderId) ids.add(leg.venueOrderId);
    }
    return ids;
  }
}

export class MemoryUsers implements UserDirectory {
  readonly rows = new Map<string, TradingSettings>();
  /** Every stop the engine recorded, in order. */
  readonly stops: { userId: string; reason: string }[] = [];

  /** The realised window is folded from this store's finished trades, as the database's query does. */
  constructor(private readonly store: MemoryTradeStore = new MemoryTradeStore()) {}

  /** Adds or changes a user; a new one trades with the contract's default limits. */
  set(userId: string, s: Partial<TradingSettings> = {}): void {
    this.rows.set(userId, {
      userId,
      maxExposure: String(TRADING_DEFAULTS.maxExposure),
      maxLoss: String(TRADING_DEFAULTS.maxLoss),
      minSpread: String(TRADING_DEFAULTS.minSpread),
      tradingEnabled: true,
      tradingStop: null,
      tradingEnabledAt: null,
      tradingPausedAt: null,
      tradingPauseReason: null,
      symbols: null,
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
  async realisedWindow(userId: string): Promise<StoredWindow> {
    const since = this.rows.get(userId)?.tradingEnabledAt ?? new Date(0);
    const finished = [...this.store.states.values()]
      .filter((t) => t.userId === userId && isTerminal(t.stage) && t.closedAt !== null && t.closedAt >= since)
      .sort((a, b) => (a.closedAt as Date).getTime() - (b.closedAt as Date).getTime() || a.id.localeCompare(b.id));
    const window = finished.reduce((w, t) => foldRealised(w, money(t.actualProfit)), EMPTY_WINDOW);
    // as the database reads them: the failed trades after the newest completed one (cancelled ones are passed over)
    const failedInARow: StoredFailure[] = [];
    for (const t of finished.filter((f) => f.stage !== 'cancelled').reverse()) {
      if (t.stage !== 'failed') break;
      failedInARow.unshift({
        symbol: t.symbol,
        at: (t.closedAt as Date).getTime(),
        reason: t.reason ?? 'a leg could not be placed',
      });
    }
    return { current: window.current.toFixed(), peak: window.peak.toFixed(), failedInARow };
  }
  async stopTrading(userId: string, stop: EngineStop, reason: string) {
    this.stops.push({ userId, reason });
    this.set(userId, {
      tradingEnabled: false,
      tradingStop: stop,
      tradingPausedAt: new Date(),
      tradingPauseReason: reason,
    });
  }
}

/** Figures that never change: zero everywhere. */
export function fixedFigures(
  stats: Stats = {
    totalTrades: 0,
    successfulTrades: 0,
    failedTrades: 0,
    totalProfit: 0,
    netProfit: 0,
    winRate: 0,
    decidedTrades: 0,
    totalValue: 0,
  },
): FigureSources {
  return { stats: async () => stats };
}
