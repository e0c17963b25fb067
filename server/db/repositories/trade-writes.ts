// The engine's writes to the trades table. A trade and both of its legs are inserted before any order is placed
// (write-ahead); each later step updates legs, status and profit in one statement, so a reader or a restart never
// sees half a step.
import { eq } from 'drizzle-orm';
import type { Trade } from '../../../contract/entities';
import { CANCEL_REASONS, settle, stageFromLegs, statusOf, type TradeState } from '../../engine/trade-state';
import type { Db } from '../client';
import { trades, type TradeRow } from '../schema/trades';
import { toTradeDto } from './trades';

function rowValues(state: TradeState) {
  return {
    status: statusOf(state.stage),
    legs: state.legs,
    actualProfit: state.actualProfit,
    reason: state.reason,
    closedAt: state.closedAt,
  };
}

export async function insertTrade(db: Db, state: TradeState): Promise<Trade> {
  const [row] = await db
    .insert(trades)
    .values({
      id: state.id,
      tradeId: state.tradeId,
      userId: state.userId,
      symbol: state.symbol,
      origin: state.origin,
      totalAmount: state.notional,
      arbitrageSpread: state.openSpread.toFixed(10),
      createdAt: state.createdAt,
      updatedAt: state.createdAt,
      ...rowValues(state),
    })
    .returning();
  if (!row) throw new Error(`Trade ${state.tradeId} was not inserted`);
  return toTradeDto(row);
}

export async function saveTrade(db: Db, state: TradeState): Promise<Trade> {
  const [row] = await db
    .update(trades)
    .set({ ...rowValues(state), updatedAt: new Date() })
    .where(eq(trades.id, state.id))
    .returning();
  if (!row) throw new Error(`Trade ${state.tradeId} does not exist`);
  return toTradeDto(row);
}

/** Every trade left pending (any user), oldest first, as engine state. */
export async function unfinishedTrades(db: Db): Promise<TradeState[]> {
  const rows = await db.select().from(trades).where(eq(trades.status, 'pending')).orderBy(trades.createdAt);
  return rows.map(stateFromRow);
}

/** Rebuilds the engine's view of a stored trade; the stage follows from the legs. */
export function stateFromRow(row: TradeRow): TradeState {
  const legs = row.legs ?? [];
  const binance = legs.find((l) => l.venue === 'binance');
  const state: TradeState = {
    id: row.id,
    tradeId: row.tradeId,
    userId: row.userId,
    symbol: row.symbol,
    direction: binance?.side === 'sell' ? 'binance-rich' : 'deriv-rich',
    origin: row.origin,
    notional: row.totalAmount,
    openSpread: Number(row.arbitrageSpread),
    stage: row.status === 'pending' ? stageFromLegs(legs) : row.status,
    reason: row.reason,
    cancelRequested: row.reason !== null && CANCEL_REASONS.includes(row.reason),
    closeReason: null,
    legs,
    actualProfit: row.actualProfit,
    createdAt: row.createdAt,
    closedAt: row.closedAt,
  };
  return row.status === 'pending' ? settle(state, new Date()) : state;
}

/** The TradeStore port over the database. */
export class DbTradeStore {
  constructor(private readonly db: Db) {}
  insert(state: TradeState): Promise<Trade> {
    return insertTrade(this.db, state);
  }
  save(state: TradeState): Promise<Trade> {
    return saveTrade(this.db, state);
  }
  unfinished(): Promise<TradeState[]> {
    return unfinishedTrades(this.db);
  }
}
