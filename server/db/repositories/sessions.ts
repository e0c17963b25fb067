// Sessions: one row per issued token. Revoking rows ends those tokens at once.
import { and, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Role } from '../../../contract/domain';
import type { Db } from '../client';
import { sessions, users, type SessionRow } from '../schema';

export async function createSession(
  db: Db,
  session: { userId: string; expiresAt: Date; userAgent?: string; ip?: string },
): Promise<SessionRow> {
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
  expiresAt: Date;
}

function liveSessionStatement(db: Db) {
  return db
    .select({
      userId: users.id,
      role: users.role,
      isActive: users.isActive,
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .limit(1)
    .prepare('live_session');
}

/**
 * Every authenticated request asks this, so the statement is built once per database (or transaction) and only
 * executed: no query building per request, and on PostgreSQL a named statement parsed and planned once per connection.
 */
const liveSessionStatements = new WeakMap<Db, ReturnType<typeof liveSessionStatement>>();

/** The session's user when the session exists, belongs to that user, is not revoked and has not expired. */
export async function findLiveSession(db: Db, sessionId: string, userId: string): Promise<LiveIdentity | null> {
  let statement = liveSessionStatements.get(db);
  if (!statement) liveSessionStatements.set(db, (statement = liveSessionStatement(db)));
  // The clock is the app's (as the token's expiry is), sent as ISO text the column's type parses on either driver.
  const [row] = await statement.execute({ sessionId, userId, now: new Date().toISOString() });
  return row ?? null;
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Every live session of the user, but `except` when given (the caller's own). */
export async function revokeUserSessions(db: Db, userId: string, except?: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        except === undefined ? undefined : ne(sessions.id, except),
      ),
    );
}

/** Drops a user's sessions that ended more than a day ago, so the table does not grow with every sign-in. */
export async function pruneEndedSessions(db: Db, userId: string, now = new Date()): Promise<void> {
  const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
  await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), or(lt(sessions.expiresAt, dayAgo), lt(sessions.revokedAt, dayAgo))));
}
