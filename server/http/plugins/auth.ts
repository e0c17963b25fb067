// Authentication and authorization hooks. A token is honoured only while its session row is live and its user is
// active, so logout, password change, deactivation and deletion take effect on the very next request. Live sessions
// are remembered between requests while the database's auth-change feed is live (session-cache.ts says why that is
// safe); admin checks and the socket handshake always read the database.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { AuthChangeFeed } from '../../db/auth-changes';
import { findLiveSession } from '../../db/repositories/sessions';
import { hasTwoFactor } from '../../db/repositories/two-factor';
import { TWO_FACTOR_MESSAGES } from '../../../contract/guard';
import { findUserById } from '../../db/repositories/users';
import type { RequestUser } from './decorators';
import { forbidden, unauthorized } from './http-error';
import { createSessionCache } from './session-cache';

const BEARER = /^Bearer\s+(\S+)$/i;

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  return BEARER.exec(header)?.[1] ?? null;
}

/**
 * `authChanges`: the database's feed of revoked sessions and changed users; without it (tests of other parts, tools)
 * every request reads its session from the database.
 */
export function registerAuth(app: FastifyInstance, authChanges?: AuthChangeFeed): void {
  const cache = createSessionCache();
  if (authChanges) {
    cache.setEnabled(authChanges.isLive);
    const unsubscribe = authChanges.subscribe({
      changed: (userId) => cache.forgetUser(userId),
      lost: () => cache.setEnabled(false),
      live: () => cache.setEnabled(true),
    });
    // This instance's own revocations are forgotten before their response is sent, not when the notice comes back.
    const own = app.revocations$.subscribe(({ userId }) => cache.forgetUser(userId));
    app.addHook('onClose', async () => {
      unsubscribe();
      own.unsubscribe();
      cache.setEnabled(false);
    });
  }

  async function identify(token: string, useCache: boolean): Promise<RequestUser | 'inactive' | null> {
    const claims = await app.tokens.verify(token);
    if (!claims) return null;
    if (useCache) {
      const known = cache.get(claims.sid, claims.sub);
      if (known) return { id: known.userId, role: known.role, sessionId: known.sessionId };
    }
    const generation = cache.generation();
    const live = await findLiveSession(app.db, claims.sid, claims.sub);
    // Deactivation also ends the user's sessions; a token from one of them is told the reason, not only that it ended.
    if (!live) return (await findUserById(app.db, claims.sub))?.isActive === false ? 'inactive' : null;
    if (!live.isActive) return 'inactive';
    if (useCache)
      cache.put(generation, {
        userId: live.userId,
        role: live.role,
        sessionId: live.sessionId,
        expiresAt: live.expiresAt.getTime(),
      });
    // The role comes from the database, not the token, so a role change applies at once.
    return { id: live.userId, role: live.role, sessionId: live.sessionId };
  }

  app.decorateRequest('user', null as unknown as RequestUser);

  // The socket handshake and its revalidation read the database: a revalidation may be asked by another instance
  // (Redis) before this one has heard the database's notice.
  app.decorate('verifyToken', async (token: string) => {
    const identity = await identify(token, false);
    return identity === 'inactive' ? null : identity;
  });

  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized('Authentication required. Please sign in.');
    const identity = await identify(token, true);
    if (identity === 'inactive') throw unauthorized('Your account has been deactivated. Contact an admin.');
    if (!identity) throw unauthorized('Your session has expired or was ended. Please sign in again.');
    request.user = identity;
  });

  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    if (!request.user) throw forbidden('Admin access required');
    // Admin rights are read from the database on every admin call: a role change applies at once on every instance,
    // whatever the cache of sessions holds.
    const live = await findLiveSession(app.db, request.user.sessionId, request.user.id);
    if (!live) throw unauthorized('Your session has expired or was ended. Please sign in again.');
    if (!live.isActive) throw unauthorized('Your account has been deactivated. Contact an admin.');
    request.user = { id: live.userId, role: live.role, sessionId: live.sessionId };
    if (request.user.role !== 'admin') throw forbidden('Admin access required');
    // ADMIN_REQUIRE_2FA: an admin without a second factor is sent to Profile to set one up first.
    if (app.config.adminRequire2fa && !(await hasTwoFactor(app.db, request.user.id)))
      throw forbidden(TWO_FACTOR_MESSAGES.adminMustEnrol);
  });

  app.addHook('onRoute', (route) => authenticateFirst(app, route));
}

type Hook = NonNullable<RouteOptions['onRequest']>;
const hooksOf = (hooks: Hook | RouteOptions['preHandler'] | undefined): unknown[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? [...hooks] : [hooks];

/**
 * Who is asking is settled before anything of the request is read: on every route under /api the token is checked
 * at onRequest, before the body is parsed or validated (an anonymous or forged request gets 401, never field errors),
 * and an admin route checks the role right after (a user gets 403). Routes keep saying
 * `preHandler: app.authenticate` (and `app.requireAdmin`); this moves those checks to onRequest, and a route under
 * /api that names neither is authenticated all the same: a route is public only by declaring the OpenAPI
 * `security: []` that documents it as public.
 */
function authenticateFirst(app: FastifyInstance, route: RouteOptions): void {
  if (!route.url.startsWith('/api/')) return;
  const isPublic = Array.isArray(route.schema?.security) && route.schema.security.length === 0;
  const checks = new Set<unknown>([app.authenticate, app.requireAdmin]);
  const preHandler = hooksOf(route.preHandler);
  const onRequest = hooksOf(route.onRequest);
  const asked = [...preHandler, ...onRequest].filter((hook) => checks.has(hook));
  if (isPublic) {
    if (asked.length > 0) throw new Error(`${route.method} ${route.url} declares security: [] but asks for a token`);
    return;
  }
  // A HEAD route copied from its GET comes through with the checks already moved.
  const admin = asked.includes(app.requireAdmin);
  const rest = onRequest.filter((hook) => !checks.has(hook));
  route.preHandler = preHandler.filter((hook) => !checks.has(hook)) as RouteOptions['preHandler'];
  route.onRequest = [app.authenticate, ...(admin ? [app.requireAdmin] : []), ...rest] as Hook;
}
