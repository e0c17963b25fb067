// Signing in creates a session row and a token that names it; the row is what logout and friends revoke. Ending a
// user's sessions also tells this instance's live sockets and session cache at once (revocations$).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema';
import { createSession, pruneEndedSessions, revokeUserSessions } from '../db/repositories/sessions';
import type { Db } from '../db/client';

export async function issueToken(
  app: FastifyInstance,
  request: FastifyRequest,
  user: UserRow,
  db: Db = app.db,
): Promise<string> {
  await pruneEndedSessions(db, user.id);
  const expiresAt = new Date(Date.now() + app.config.tokenTtlSeconds * 1000);
  const session = await createSession(db, {
    userId: user.id,
    expiresAt,
    userAgent: request.headers['user-agent'] ?? '',
    ip: request.ip,
  });
  return app.tokens.sign({ sub: user.id, sid: session.id, role: user.role }, expiresAt);
}

/**
 * Ends every session of the user but `keep` (the caller's own, when the user acts on their own account): a change
 * of how the account signs in (its second factor) applies to every device at once, as a password change does.
 */
export async function endOtherSessions(app: FastifyInstance, userId: string, keep?: string): Promise<void> {
  await revokeUserSessions(app.db, userId, keep);
  app.revocations$.next({ userId });
}
