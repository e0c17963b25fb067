import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A user's TOTP second factor. The secret is AES-256-GCM encrypted like venue keys (security/encryption.ts);
 * recovery codes are stored as SHA-256 hashes (they are 80 random bits, so a slow hash adds nothing) and each is
 * removed when used. `enabledAt` null: enrolment started, not yet confirmed with a code.
 */
export const twoFactor = pgTable('two_factor', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEnc: text('secret_enc').notNull(),
  recoveryHashes: text('recovery_hashes').array().notNull().default([]),
  enabledAt: timestamp('enabled_at', { withTimezone: true, mode: 'date' }),
  /** The last TOTP time step accepted, so a code cannot be replayed within its window. */
  lastStep: text('last_step'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type TwoFactorRow = typeof twoFactor.$inferSelect;
