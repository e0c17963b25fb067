// The engine's TradeStore over the database: its trade state written as rows of the trades table. On a burst the
// write-ahead inserts of many trades become one multi-row insert and their later steps one update statement per batch
// (lanes by user, server/db/batch.ts), so a thousand trades on one tick cost a few round trips, not thousands.
import type { Trade } from '../../../contract/entities';
import type { Db } from '../../db/client';
import { InsertBatcher, StatementBatcher } from '../../db/batch';
import { toTradeDto } from '../../db/repositories/trades';
import type { VenueId } from '../../../contract/domain';
import {
  insertTrades,
  pendingTrades,
  updateTrades,
  venueOrderIdsSince,
  type TradeStep,
} from '../../db/repositories/trade-writes';
import type { NewTradeRow, TradeRow } from '../../db/schema/trades';
import { TradeGoneError, type RecoverableStore } from '../ports';
import type { TradeState } from '../trade-state';
import { stateFromRow, tradeRowOf } from './trade-rows';

export class DbTradeStore implements RecoverableStore {
  private readonly inserts: InsertBatcher<NewTradeRow, TradeRow>;
  private readonly writes: StatementBatcher<{ id: string; step: TradeStep }, TradeRow | null>;

  constructor(private readonly db: Db) {
    this.inserts = new InsertBatcher((rows) => insertTrades(db, rows));
    this.writes = new StatementBatcher((steps) => updateTrades(db, steps));
  }

  async insert(state: TradeState): Promise<Trade> {
    return toTradeDto(await this.inserts.insert(tradeRowOf(state, state.createdAt)));
  }

  async save(state: TradeState): Promise<Trade> {
    const { status, legs, actualProfit, reason, closedAt } = tradeRowOf(state, new Date());
    const step = { status, legs, actualProfit, reason, closedAt };
    const row = await this.writes.run(state.userId, { id: state.id, step });
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
