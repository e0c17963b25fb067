// Venue credentials: encrypted at rest, decrypted only for the engine (loadVenueAccount), shown only masked.
import { eq, inArray } from 'drizzle-orm';
import type { VenueAccount } from '../../venues/types';
import { decryptSecret, encryptSecret } from '../../security/encryption';
import { lastFour } from '../../security/masking';
import type { Db } from '../client';
import { venueCredentials, type VenueCredentialsRow } from '../schema';

type CredentialsUpdate = Partial<Omit<typeof venueCredentials.$inferInsert, 'userId'>>;

export const SECRET_FIELDS = ['binanceApiKey', 'binanceSecretKey', 'derivToken'] as const;
export type SecretField = (typeof SECRET_FIELDS)[number];

const COLUMNS = {
  binanceApiKey: { enc: 'binanceApiKeyEnc', last4: 'binanceApiKeyLast4' },
  binanceSecretKey: { enc: 'binanceSecretKeyEnc', last4: 'binanceSecretKeyLast4' },
  derivToken: { enc: 'derivTokenEnc', last4: 'derivTokenLast4' },
} as const satisfies Record<SecretField, { enc: keyof VenueCredentialsRow; last4: keyof VenueCredentialsRow }>;

/** Omitted = unchanged, '' = remove. */
export type CredentialChanges = Partial<Record<SecretField | 'derivAppId', string>>;

export async function findCredentials(db: Db, userId: string): Promise<VenueCredentialsRow | null> {
  const [row] = await db.select().from(venueCredentials).where(eq(venueCredentials.userId, userId)).limit(1);
  return row ?? null;
}

/** Credentials of many users in one query, keyed by user id (users without any are absent). */
export async function findCredentialsFor(db: Db, userIds: string[]): Promise<Map<string, VenueCredentialsRow>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.select().from(venueCredentials).where(inArray(venueCredentials.userId, userIds));
  return new Map(rows.map((row) => [row.userId, row]));
}

export async function saveCredentials(
  db: Db,
  key: Buffer,
  userId: string,
  changes: CredentialChanges,
): Promise<VenueCredentialsRow> {
  const set: CredentialsUpdate = { updatedAt: new Date() };
  for (const field of SECRET_FIELDS) {
    const value = changes[field]?.trim();
    if (value === undefined) continue;
    set[COLUMNS[field].enc] = value === '' ? null : encryptSecret(key, value);
    // Only the public API key keeps its last 4 characters, for display; nothing of a secret is kept in clear.
    set[COLUMNS[field].last4] = value !== '' && field === 'binanceApiKey' ? lastFour(value) : null;
  }
  if (changes.derivAppId !== undefined) set.derivAppId = changes.derivAppId.trim();
  const [row] = await db
    .insert(venueCredentials)
    .values({ userId, ...set })
    .onConflictDoUpdate({ target: venueCredentials.userId, set })
    .returning();
  if (!row) throw new Error('upsert returned no row');
  return row;
}

/** Decrypted credentials for signing orders. Never log or return the result. */
export function decryptCredentials(key: Buffer, userId: string, row: VenueCredentialsRow | null): VenueAccount {
  const credentials: VenueAccount['credentials'] = {};
  if (row) {
    for (const field of SECRET_FIELDS) {
      const stored = row[COLUMNS[field].enc];
      if (stored) credentials[field] = decryptSecret(key, stored);
    }
    if (row.derivAppId) credentials.derivAppId = row.derivAppId;
  }
  return { userId, credentials };
}

/** A user's decrypted credentials, read each time (a saved change applies to the next order). For the engine only. */
export function venueAccountLoader(db: Db, key: Buffer): (userId: string) => Promise<VenueAccount> {
  return async (userId) => decryptCredentials(key, userId, await findCredentials(db, userId));
}
