// Where the engine writes trades: the port, and an in-memory implementation for tests and the benchmark.
import type { Trade } from '../../contract/entities';
import { statusOf, type TradeState } from './trade-state';

export interface TradeStore {
  /** Write-ahead: the trade and its legs exist before any order is placed. */
  insert(state: TradeState): Promise<Trade>;
  /** Legs, status, profit and reason after a step. */
  save(state: TradeState): Promise<Trade>;
}

/** The wire form of a state, for stores that keep no rows of their own. */
export function tradeDtoOf(state: TradeState, updatedAt: Date): Trade {
  const fill = (f: { price: string; quantity: string; fee: string; at: string } | null) =>
    f ? { price: Number(f.price), quantity: Number(f.quantity), fee: Number(f.fee), at: f.at } : null;
  return {
    _id: state.id,
    tradeId: state.tradeId,
    userId: state.userId,
    symbol: state.symbol,
    status: statusOf(state.stage),
    totalAmount: Number(state.notional),
    arbitrageSpread: state.openSpread,
    actualProfit: Number(state.actualProfit),
    origin: state.origin,
    reason: state.reason,
    legs: state.legs.map((l) => ({ ...l, open: fill(l.open), close: fill(l.close) })),
    createdAt: state.createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
    closedAt: state.closedAt ? state.closedAt.toISOString() : null,
  };
}

export class InMemoryTradeStore implements TradeStore {
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
}
