import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { updatedAt } from './columns';
import { users } from './users';

/** Venue credentials, each secret AES-256-GCM encrypted (base64 of iv | tag | ciphertext). Never returned. */
export const venueCredentials = pgTable('venue_credentials', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  binanceApiKeyEnc: text('binance_api_key_enc'),
  binanceSecretKeyEnc: text('binance_secret_key_enc'),
  derivTokenEnc: text('deriv_token_enc'),
  /** Last 4 characters of each secret, for the masked display. */
  binanceApiKeyLast4: text('binance_api_key_last4'),
  binanceSecretKeyLast4: text('binance_secret_key_last4'),
  derivTokenLast4: text('deriv_token_last4'),
  derivAppId: text('deriv_app_id').notNull().default(''),
  updatedAt: updatedAt(),
});

export type VenueCredentialsRow = typeof venueCredentials.$inferSelect;
