// The engine's trade state as a row of the trades table and back, and so as the wire's Trade: a state and a stored
// row of the same trade always read the same.
import type { Trade } from '../../../contract/entities';
import { toTradeDto } from '../../db/repositories/trades';
import type { TradeRow } from '../../db/schema/trades';
import { settle, stageFromLegs, statusOf, type TradeState } from '../trade-state';

export function tradeRowOf(state: TradeState, updatedAt: Date): TradeRow {
  return {
    id: state.id,
    tradeId: state.tradeId,
    userId: state.userId,
    symbol: state.symbol,
    origin: state.origin,
    totalAmount: state.notional,
    // numeric(18, 10), as the column keeps it
    arbitrageSpread: state.openSpread.toFixed(10),
    status: statusOf(state.stage),
    legs: state.legs,
    // Written with the trade for its detail screen; stateFromRow leaves it out (a leg is never placed late).
    decisionQuotes: state.decision ?? null,
    actualProfit: state.actualProfit,
    reason: state.reason,
    createdAt: state.createdAt,
    updatedAt,
    closedAt: state.closedAt,
  };
}

/** The wire form of a state, for answers made before (or without) a database row. */
export function tradeDtoOf(state: TradeState, updatedAt: Date): Trade {
  return toTradeDto(tradeRowOf(state, updatedAt));
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
    closeReason: null,
    legs,
    actualProfit: row.actualProfit,
    createdAt: row.createdAt,
    closedAt: row.closedAt,
  };
  return row.status === 'pending' ? settle(state, new Date()) : state;
}
