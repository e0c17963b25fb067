// Stop & flatten requests waiting for the leading engine (see schema/flatten-requests.ts).
import { eq } from 'drizzle-orm';
import type { Db } from '../client';
import { flattenRequests } from '../schema';

export async function requestFlatten(db: Db, userId: string): Promise<void> {
  await db
    .insert(flattenRequests)
    .values({ userId })
    .onConflictDoUpdate({ target: flattenRequests.userId, set: { requestedAt: new Date() } });
}

export async function pendingFlattens(db: Db): Promise<string[]> {
  return (await db.select({ userId: flattenRequests.userId }).from(flattenRequests)).map((r) => r.userId);
}

export async function flattenDone(db: Db, userId: string): Promise<void> {
  await db.delete(flattenRequests).where(eq(flattenRequests.userId, userId));
}
