import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ROLES, TRADING_DEFAULTS, type SymbolId } from '../../../contract/domain';
import { TRADING_STOPS } from '../../../contract/trading-state';
import { createdAt, money, updatedAt } from './columns';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ROLES }).notNull().default('user'),
    isActive: boolean('is_active').notNull().default(true),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    phone: text('phone').notNull().default(''),
    bio: text('bio').notNull().default(''),
    lastLogin: timestamp('last_login', { withTimezone: true, mode: 'date' }),
    // trading settings
    maxExposure: money('max_exposure').notNull().default(String(TRADING_DEFAULTS.maxExposure)),
    minSpread: numeric('min_spread', { precision: 12, scale: 8 }).notNull().default(String(TRADING_DEFAULTS.minSpread)),
    maxLoss: money('max_loss').notNull().default(String(TRADING_DEFAULTS.maxLoss)),
    tradingEnabled: boolean('trading_enabled').notNull().default(TRADING_DEFAULTS.tradingEnabled),
    /**
     * Why trading is not running (contract/trading-state.ts), null exactly while tradingEnabled: a check constraint
     * keeps the two in step. Written only by server/trading (through db/repositories/trading-state.ts).
     */
    tradingStop: text('trading_stop', { enum: TRADING_STOPS }).default('off'),
    /** When the user last turned automated trading on: the start of the window maxLoss is measured over. */
    tradingEnabledAt: timestamp('trading_enabled_at', { withTimezone: true, mode: 'date' }),
    /**
     * Set when the engine turned trading off by itself (the maxLoss drawdown, or consecutive failed trades), with the
     * reason in the trader's words; trading stays off until the user saves settings with trading enabled.
     */
    tradingPausedAt: timestamp('trading_paused_at', { withTimezone: true, mode: 'date' }),
    tradingPauseReason: text('trading_pause_reason'),
    /** The IANA zone the user reads dates in (checked against the runtime's list when saved); null: the browser's. */
    timeZone: text('time_zone'),
    /** The pairs the user trades (names from contract/pairs.ts); null = every pair the server trades. */
    symbols: jsonb('symbols').$type<SymbolId[]>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    index('users_trading_idx').on(t.tradingEnabled),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
