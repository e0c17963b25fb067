// Venue credentials: encrypted at rest, decrypted only for the engine (loadVenueAccount), shown only masked. Beside
// the Deriv token: what Deriv said about it (the API, the accounts it reaches), written back by the connector.
import { and, eq, inArray } from 'drizzle-orm';
import { NO_DERIV_LINK, type DerivAccountInfo, type DerivApi, type DerivLink } from '../../../contract/deriv';
import type { VenueAccount, VenueFacts } from '../../venues/types';
import { decryptSecret, encryptSecret } from '../../security/encryption';
import { lastFour } from '../../security/masking';
import { ReadBatcher } from '../batch';
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
export type CredentialChanges = Partial<Record<SecretField | 'derivAppId' | 'derivAccountId', string>>;

/** Nothing known about a Deriv token yet. */
const DERIV_UNKNOWN = { derivApi: null, derivAccounts: null, derivCheckedAt: null } as const;

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

/**
 * Saves what changed. A new Deriv token may belong to the other API and reach other accounts: what Deriv said about
 * the old one is forgotten, and so is the chosen account unless the same request chooses one. A new app ID can change
 * the API the token works with, so the API is found out again; the chosen account stays.
 */
export async function saveCredentials(
  db: Db,
  key: Buffer,
  userId: string,
  changes: CredentialChanges,
): Promise<VenueCredentialsRow> {
  const before = await findCredentials(db, userId);
  const set: CredentialsUpdate = { updatedAt: new Date() };
  for (const field of SECRET_FIELDS) {
    const value = changes[field]?.trim();
    if (value === undefined) continue;
    set[COLUMNS[field].enc] = value === '' ? null : encryptSecret(key, value);
    // Only the public API key keeps its last 4 characters, for display; nothing of a secret is kept in clear.
    set[COLUMNS[field].last4] = value !== '' && field === 'binanceApiKey' ? lastFour(value) : null;
  }
  const appId = changes.derivAppId?.trim();
  if (appId !== undefined) set.derivAppId = appId;
  if (changes.derivToken !== undefined) Object.assign(set, DERIV_UNKNOWN, { derivAccountId: '' });
  else if (appId !== undefined && appId !== (before?.derivAppId ?? '')) Object.assign(set, DERIV_UNKNOWN);
  if (changes.derivAccountId !== undefined) set.derivAccountId = changes.derivAccountId.trim();
  const [row] = await db
    .insert(venueCredentials)
    .values({ userId, ...set })
    .onConflictDoUpdate({ target: venueCredentials.userId, set })
    .returning();
  if (!row) throw new Error('upsert returned no row');
  return row;
}

/**
 * Writes down what Deriv said about the token saved in `row`, unless the token or app ID changed meanwhile (the
 * ciphertext of a token is unique to that save). Chooses the account only where none is chosen.
 */
export async function saveDerivFacts(
  db: Db,
  row: Pick<VenueCredentialsRow, 'userId' | 'derivTokenEnc' | 'derivAppId'>,
  facts: { api: DerivApi; accounts: DerivAccountInfo[]; chosen?: string },
): Promise<void> {
  if (!row.derivTokenEnc) return;
  const same = and(
    eq(venueCredentials.userId, row.userId),
    eq(venueCredentials.derivTokenEnc, row.derivTokenEnc),
    eq(venueCredentials.derivAppId, row.derivAppId),
  );
  await db
    .update(venueCredentials)
    .set({ derivApi: facts.api, derivAccounts: facts.accounts, derivCheckedAt: new Date() })
    .where(same);
  if (facts.chosen) {
    await db
      .update(venueCredentials)
      .set({ derivAccountId: facts.chosen })
      .where(and(same, eq(venueCredentials.derivAccountId, '')));
  }
}

/** What the product knows of the user's Deriv link, as the API shows it (no secret in it). */
export function derivLinkOf(row: VenueCredentialsRow | null): DerivLink {
  if (!row?.derivTokenEnc) return NO_DERIV_LINK;
  return {
    api: row.derivApi ?? null,
    accountId: row.derivAccountId,
    accounts: row.derivAccounts ?? [],
    checkedAt: row.derivCheckedAt ? row.derivCheckedAt.toISOString() : null,
  };
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
    if (row.derivApi) credentials.derivApi = row.derivApi;
    if (row.derivAccountId) credentials.derivAccountId = row.derivAccountId;
  }
  return { userId, credentials };
}

/**
 * A user's decrypted credentials, read each time (a saved change applies to the next order), with a place for the
 * connectors to write down what they found out about them. For the engine and the connection test only. The reads of
 * many users arriving together (a burst of trades on one tick) are one query (server/db/batch.ts).
 */
export function venueAccountLoader(db: Db, key: Buffer): (userId: string) => Promise<VenueAccount> {
  const rows = new ReadBatcher<string, VenueCredentialsRow | null>(
    (ids) => findCredentialsFor(db, ids),
    (id) => id,
    null,
  );
  return async (userId) => {
    const row = await rows.load(userId);
    const account = decryptCredentials(key, userId, row);
    if (!row?.derivTokenEnc) return account;
    return { ...account, remember: (facts: VenueFacts) => saveDerivFacts(db, row, facts.deriv) };
  };
}
