import { bigint, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

/**
 * A user's linked Telegram chat: at most one per user, and a chat belongs to one user. The time zone and locale are
 * the browser's when the user asked for the link code: Telegram tells a bot neither, and the bot's figures and times
 * are shown in them. Rows go when the user unlinks, when the chat is linked again by another user's code, or with the user.
 */
export const telegramLinks = pgTable(
  'telegram_links',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    chatId: bigint('chat_id', { mode: 'number' }).notNull(),
    /** How the chat introduced itself (first name or @username), for the user's Profile. */
    chatName: text('chat_name').notNull().default(''),
    timeZone: text('time_zone').notNull().default('UTC'),
    locale: text('locale').notNull().default('en-US'),
    linkedAt: timestamp('linked_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('telegram_links_chat_idx').on(t.chatId)],
);

/** One-time link codes (SHA-256 of the code), single use, expiring; a user has at most one at a time. */
export const telegramLinkCodes = pgTable(
  'telegram_link_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    timeZone: text('time_zone').notNull().default('UTC'),
    locale: text('locale').notNull().default('en-US'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('telegram_link_codes_user_idx').on(t.userId)],
);

export type TelegramLinkRow = typeof telegramLinks.$inferSelect;
