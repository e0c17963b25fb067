// Sessions: one row per issued token. Revoking rows ends those tokens at once.
import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Role } from '../../../contract/domain';
import type { Db } from '../client';
import { sessions, users, type SessionRow } from '../schema';

export async function createSession(db: Db, session: { userId: string; expiresAt: Date; userAgent?: string; ip?: string }): Promise<SessionRow> {
  const [row] = await db
    .insert(sessions)
    .values({
      userId: session.userId,
      expiresAt: session.expiresAt,
      userAgent: (session.userAgent ?? '').slice(0, 300),
      ip: (session.ip ?? '').slice(0, 64),
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export interface LiveIdentity {
  userId: string;
  role: Role;
  isActive: boolean;
  sessionId: string;
}

/** The session's user when the session exists, belongs to that user, is not revoked and has not expired. */
export async function findLiveSession(db: Db, sessionId: string, userId: string): Promise<LiveIdentity | null> {
  const [row] = await db
    .select({ userId: users.id, role: users.role, isActive: users.isActive, sessionId: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .limit(1);
  return row ?? null;
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeUserSessions(db: Db, userId: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

/** Drops a user's sessions that ended more than a day ago, so the table does not grow with every sign-in. */
export async function pruneEndedSessions(db: Db, userId: string, now = new Date()): Promise<void> {
  const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
  await db.delete(sessions).where(and(eq(sessions.userId, userId), or(lt(sessions.expiresAt, dayAgo), lt(sessions.revokedAt, dayAgo))));
}
