// The engine's TradeStore over the database: its trade state written as rows of the trades table.
import type { Trade } from '../../../contract/entities';
import type { Db } from '../../db/client';
import { toTradeDto } from '../../db/repositories/trades';
import type { VenueId } from '../../../contract/domain';
import { insertTrade, pendingTrades, updateTrade, venueOrderIdsSince } from '../../db/repositories/trade-writes';
import { TradeGoneError, type RecoverableStore } from '../ports';
import type { TradeState } from '../trade-state';
import { stateFromRow, tradeRowOf } from './trade-rows';

export class DbTradeStore implements RecoverableStore {
  constructor(private readonly db: Db) {}

  async insert(state: TradeState): Promise<Trade> {
    return toTradeDto(await insertTrade(this.db, tradeRowOf(state, state.createdAt)));
  }

  async save(state: TradeState): Promise<Trade> {
    const { status, legs, actualProfit, reason, closedAt } = tradeRowOf(state, new Date());
    const row = await updateTrade(this.db, state.id, { status, legs, actualProfit, reason, closedAt });
    if (!row) throw new TradeGoneError(state.tradeId);
    return toTradeDto(row);
  }

  async unfinished(): Promise<TradeState[]> {
    return (await pendingTrades(this.db)).map(stateFromRow);
  }

  claimedOrderIds(venue: VenueId, since: Date): Promise<Set<string>> {
    return venueOrderIdsSince(this.db, venue, since);
  }
}
