// Signing in creates a session row and a token that names it; the row is what logout and friends revoke.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow } from '../../db/schema';
import { createSession, pruneEndedSessions } from '../../db/repositories/sessions';
import type { Db } from '../../db/client';

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
