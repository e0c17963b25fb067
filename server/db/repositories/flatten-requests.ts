// Stop & flatten requests waiting for the leading engine (see schema/flatten-requests.ts).
import { eq } from 'drizzle-orm';
import type { Db } from '../client';
import { flattenRequests } from '../schema';

/** Queues closing every open trade of the user, `reason` becoming each trade's; a newer request replaces an older. */
export async function requestFlatten(db: Db, userId: string, reason: string): Promise<void> {
  await db
    .insert(flattenRequests)
    .values({ userId, reason })
    .onConflictDoUpdate({ target: flattenRequests.userId, set: { requestedAt: new Date(), reason } });
}

export interface PendingFlatten {
  userId: string;
  reason: string;
}

export async function pendingFlattens(db: Db): Promise<PendingFlatten[]> {
  return db.select({ userId: flattenRequests.userId, reason: flattenRequests.reason }).from(flattenRequests);
}

export async function flattenDone(db: Db, userId: string): Promise<void> {
  await db.delete(flattenRequests).where(eq(flattenRequests.userId, userId));
}
