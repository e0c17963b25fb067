import { sql } from 'drizzle-orm';
import { boolean, pgTable, text, timestamp, uniqueIndex, uuid, numeric, index } from 'drizzle-orm/pg-core';
import { createdAt, money, updatedAt } from './columns';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['admin', 'user'] }).notNull().default('user'),
    isActive: boolean('is_active').notNull().default(true),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    phone: text('phone').notNull().default(''),
    bio: text('bio').notNull().default(''),
    lastLogin: timestamp('last_login', { withTimezone: true, mode: 'date' }),
    // trading settings
    maxExposure: money('max_exposure').notNull().default('1000'),
    minSpread: numeric('min_spread', { precision: 12, scale: 8 }).notNull().default('0.002'),
    maxLoss: money('max_loss').notNull().default('100'),
    tradingEnabled: boolean('trading_enabled').notNull().default(false),
    /** Set when realised loss reached maxLoss; trading stays off until the user saves settings again. */
    tradingHaltedAt: timestamp('trading_halted_at', { withTimezone: true, mode: 'date' }),
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
