// Holdings per venue and currency. Amounts stay decimal strings here; the routes turn them into JSON numbers.
import { eq, sql } from 'drizzle-orm';
import { VENUES, type Currency, type VenueId } from '../../../contract/domain';
import { enabledCurrencies } from '../../venues/enabled-pairs';
import type { Db } from '../client';
import { balances } from '../schema/balances';
import { PAPER_SEED, paperSeedOf } from '../../venues/sim/paper-seed';

export type VenueAmounts = Record<Currency, string>;

export interface UserBalances {
  binance: VenueAmounts;
  deriv: VenueAmounts;
  /** When any of the rows last changed; null when the user holds nothing recorded. */
  updatedAt: Date | null;
}

/** Every currency the enabled pairs hold, at 0. */
const zeroes = (): VenueAmounts => Object.fromEntries(enabledCurrencies().map((c) => [c, '0']));

/** Every venue and currency (the enabled pairs' and any other held), a missing row counting as 0. */
export async function getBalances(db: Db, userId: string): Promise<UserBalances> {
  const rows = await db.select().from(balances).where(eq(balances.userId, userId));
  const result: UserBalances = { binance: zeroes(), deriv: zeroes(), updatedAt: null };
  for (const row of rows) {
    result[row.venue][row.currency] = row.amount;
    if (!result.updatedAt || row.updatedAt > result.updatedAt) result.updatedAt = row.updatedAt;
  }
  return result;
}

/**
 * Gives a user the simulated market's starting paper balances, once: rows that exist are left alone, so
 * calling it on every read is safe and never resets a balance that trading has changed.
 */
export async function ensurePaperBalances(db: Db, userId: string): Promise<void> {
  await ensurePaperBalancesOf(db, [userId]);
}

/** The same for many users in one statement (the engine's first burst). */
export async function ensurePaperBalancesOf(db: Db, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  const rows = userIds.flatMap((userId) =>
    VENUES.flatMap((venue) =>
      enabledCurrencies().map((currency) => ({
        userId,
        venue,
        currency,
        amount: paperSeedOf(PAPER_SEED, venue, currency),
      })),
    ),
  );
  await db.insert(balances).values(rows).onConflictDoNothing();
}

/** Replaces one venue's holdings with amounts read from the venue (live sync). */
export async function setVenueBalances(db: Db, userId: string, venue: VenueId, amounts: VenueAmounts): Promise<void> {
  const rows = Object.entries(amounts).map(([currency, amount]) => ({ userId, venue, currency, amount }));
  await db
    .insert(balances)
    .values(rows)
    .onConflictDoUpdate({
      target: [balances.userId, balances.venue, balances.currency],
      set: { amount: sql`excluded.amount`, updatedAt: sql`now()` },
    });
}
