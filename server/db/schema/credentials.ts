import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { DerivAccountInfo, DerivApi } from '../../../contract/deriv';
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
  /**
   * What Deriv said about the saved token (one column holds either kind of token): the API it belongs to, the Options
   * accounts it reaches, when that was read. Written by the connector; cleared when the token or app id changes.
   */
  derivApi: text('deriv_api').$type<DerivApi>(),
  derivAccounts: jsonb('deriv_accounts').$type<DerivAccountInfo[]>(),
  derivCheckedAt: timestamp('deriv_checked_at', { withTimezone: true, mode: 'date' }),
  /** The Options account the user chose to trade (new API), or the only one the token reaches; '' = none yet. */
  derivAccountId: text('deriv_account_id').notNull().default(''),
  updatedAt: updatedAt(),
});

export type VenueCredentialsRow = typeof venueCredentials.$inferSelect;
