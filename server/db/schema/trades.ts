import { sql } from 'drizzle-orm';
import { index, jsonb, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  type SymbolId,
  TRADE_ORIGINS,
  TRADE_STATUSES,
  VENUES,
  type LegSide,
  type LegStatus,
  type VenueId,
} from '../../../contract/domain';
import { createdAt, money, updatedAt } from './columns';
import { users } from './users';

/** A leg as stored: decimals as strings so nothing passes through a binary float. */
export interface StoredFill {
  price: string;
  quantity: string;
  fee: string;
  at: string;
}
export interface StoredLeg {
  venue: VenueId;
  side: LegSide;
  clientOrderId: string;
  venueOrderId: string | null;
  status: LegStatus;
  open: StoredFill | null;
  close: StoredFill | null;
  /** How the venue recognises the opening order without a client order id (Deriv), written before it was sent. */
  placement?: Record<string, string | number> | null;
}

/** Best bid and ask per venue at the decision, USDT. */
export type StoredDecisionQuotes = Record<VenueId, { bid: number; ask: number }>;

export const trades = pgTable(
  'trades',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Human-readable, unique; also the stem of the legs' client order ids. */
    tradeId: text('trade_id').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    symbol: text('symbol').$type<SymbolId>().notNull(),
    status: text('status', { enum: TRADE_STATUSES }).notNull().default('pending'),
    origin: text('origin', { enum: TRADE_ORIGINS }).notNull().default('auto'),
    totalAmount: money('total_amount').notNull(),
    arbitrageSpread: numeric('arbitrage_spread', { precision: 18, scale: 10 }).notNull(),
    actualProfit: money('actual_profit').notNull().default('0'),
    reason: text('reason'),
    legs: jsonb('legs')
      .$type<StoredLeg[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /**
     * Both venues' best bid and ask the decision to open was made on, kept for the trade's detail (slippage of each
     * fill against its quote). Written once with the trade; never read back into the engine (a leg is never placed
     * late). Null for trades decided without quotes or stored before this column.
     */
    decisionQuotes: jsonb('decision_quotes').$type<StoredDecisionQuotes>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    // The trades list is per user, newest first, optionally filtered by status and/or symbol.
    index('trades_user_created_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('trades_user_status_created_idx').on(t.userId, t.status, t.createdAt.desc(), t.id.desc()),
    index('trades_user_symbol_created_idx').on(t.userId, t.symbol, t.createdAt.desc(), t.id.desc()),
    index('trades_user_status_symbol_created_idx').on(t.userId, t.status, t.symbol, t.createdAt.desc(), t.id.desc()),
    // The history sync's change feed: the caller's trades by last change (server/db/repositories/trade-changes.ts).
    index('trades_user_updated_idx').on(t.userId, t.updatedAt, t.id),
    // Crash recovery looks for open trades of every user.
    index('trades_pending_idx')
      .on(t.status)
      .where(sql`status = 'pending'`),
  ],
);

export type TradeRow = typeof trades.$inferSelect;
export type NewTradeRow = typeof trades.$inferInsert;

/** Orders executed by the simulated venues: the paper venue's own order book, keyed by client order id. */
export const paperOrders = pgTable(
  'paper_orders',
  {
    venue: text('venue', { enum: VENUES }).notNull(),
    clientOrderId: text('client_order_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    venueOrderId: text('venue_order_id').notNull(),
    price: money('price').notNull(),
    quantity: money('quantity').notNull(),
    fee: money('fee').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('paper_orders_venue_client_idx').on(t.venue, t.clientOrderId)],
);
