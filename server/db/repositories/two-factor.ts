// Two-factor rows: the pending or enabled TOTP secret (encrypted), the recovery-code hashes, the last accepted step.
// The writes that accept a code are conditional, so two requests racing with one code cannot both succeed.
import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { twoFactor, type TwoFactorRow } from '../schema';

export async function findTwoFactor(db: Db, userId: string): Promise<TwoFactorRow | null> {
  const [row] = await db.select().from(twoFactor).where(eq(twoFactor.userId, userId)).limit(1);
  return row ?? null;
}

/** Starts (or restarts) an enrolment; never touches an enabled one. */
export async function savePendingSecret(db: Db, userId: string, secretEnc: string): Promise<boolean> {
  const rows = await db
    .insert(twoFactor)
    .values({ userId, secretEnc })
    .onConflictDoUpdate({
      target: twoFactor.userId,
      set: { secretEnc, recoveryHashes: [], lastStep: null, createdAt: new Date() },
      setWhere: isNull(twoFactor.enabledAt),
    })
    .returning({ userId: twoFactor.userId });
  return rows.length > 0;
}

export async function enableTwoFactor(
  db: Db,
  userId: string,
  recoveryHashes: string[],
  step: number,
): Promise<boolean> {
  const rows = await db
    .update(twoFactor)
    .set({ enabledAt: new Date(), recoveryHashes, lastStep: String(step) })
    .where(and(eq(twoFactor.userId, userId), isNull(twoFactor.enabledAt)))
    .returning({ userId: twoFactor.userId });
  return rows.length > 0;
}

/** Records an accepted TOTP step; false when this step (or a later one) was already used. */
export async function useTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(twoFactor)
    .set({ lastStep: String(step) })
    .where(
      and(eq(twoFactor.userId, userId), or(isNull(twoFactor.lastStep), lt(sql`${twoFactor.lastStep}::bigint`, step))),
    )
    .returning({ userId: twoFactor.userId });
  return rows.length > 0;
}

/** Removes one recovery code if it is still there; true when it was (the code is now spent). */
export async function useRecoveryCode(db: Db, userId: string, hash: string): Promise<boolean> {
  const rows = await db
    .update(twoFactor)
    .set({ recoveryHashes: sql`array_remove(${twoFactor.recoveryHashes}, ${hash})` })
    .where(and(eq(twoFactor.userId, userId), sql`${hash} = ANY(${twoFactor.recoveryHashes})`))
    .returning({ userId: twoFactor.userId });
  return rows.length > 0;
}

export async function deleteTwoFactor(db: Db, userId: string): Promise<boolean> {
  const rows = await db.delete(twoFactor).where(eq(twoFactor.userId, userId)).returning({ userId: twoFactor.userId });
  return rows.length > 0;
}

export async function hasTwoFactor(db: Db, userId: string): Promise<boolean> {
  const row = await findTwoFactor(db, userId);
  return row?.enabledAt != null;
}

/** Of these users, the ones whose two-factor sign-in is on: one query for the whole admin list. */
export async function usersWithTwoFactor(db: Db, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: twoFactor.userId })
    .from(twoFactor)
    .where(and(inArray(twoFactor.userId, [...userIds]), isNotNull(twoFactor.enabledAt)));
  return new Set(rows.map((r) => r.userId));
}
