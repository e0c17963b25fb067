// Authentication and authorization hooks. A token is honoured only while its session row is live and its user is
// active, so logout, password change, deactivation and deletion take effect on the very next request.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findLiveSession } from '../../db/repositories/sessions';
import { hasTwoFactor } from '../../db/repositories/two-factor';
import { TWO_FACTOR_MESSAGES } from '../../../contract/guard';
import { findUserById } from '../../db/repositories/users';
import type { RequestUser } from './decorators';
import { forbidden, unauthorized } from './http-error';

const BEARER = /^Bearer\s+(\S+)$/i;

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  return BEARER.exec(header)?.[1] ?? null;
}

export function registerAuth(app: FastifyInstance): void {
  async function identify(token: string): Promise<RequestUser | 'inactive' | null> {
    const claims = await app.tokens.verify(token);
    if (!claims) return null;
    const live = await findLiveSession(app.db, claims.sid, claims.sub);
    // Deactivation also ends the user's sessions; a token from one of them is told the reason, not only that it ended.
    if (!live) return (await findUserById(app.db, claims.sub))?.isActive === false ? 'inactive' : null;
    if (!live.isActive) return 'inactive';
    // The role comes from the database, not the token, so a role change applies at once.
    return { id: live.userId, role: live.role, sessionId: live.sessionId };
  }

  app.decorateRequest('user', null as unknown as RequestUser);

  app.decorate('verifyToken', async (token: string) => {
    const identity = await identify(token);
    return identity === 'inactive' ? null : identity;
  });

  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized('Authentication required. Please sign in.');
    const identity = await identify(token);
    if (identity === 'inactive') throw unauthorized('Your account has been deactivated. Contact an admin.');
    if (!identity) throw unauthorized('Your session has expired or was ended. Please sign in again.');
    request.user = identity;
  });

  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    if (request.user?.role !== 'admin') throw forbidden('Admin access required');
    // ADMIN_REQUIRE_2FA: an admin without a second factor is sent to Profile to set one up first.
    if (app.config.adminRequire2fa && !(await hasTwoFactor(app.db, request.user.id))) throw forbidden(TWO_FACTOR_MESSAGES.adminMustEnrol);
  });
}
