// The typed surface every route and plugin can rely on: what buildApp decorates the root instance with.
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { Role } from '../../../contract/domain';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { ServerSecrets } from '../../security/secrets';
import type { TokenService } from '../../security/tokens';
import type { VenueAccount } from '../../venues/types';
import type { PriceBook } from '../../engine/ports';
import type { TradingControl } from '../../trading';

/** Who made an authenticated request. */
export interface RequestUser {
  id: string;
  role: Role;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    secrets: ServerSecrets;
    tokens: TokenService;
    priceBook: PriceBook;
    /** The one owner of users' trading state (server/trading): every switch, stop and kill switch goes through it. */
    trading: TradingControl;
    /**
     * 401 unless a valid, unrevoked token of an active user is presented; sets request.user. Named as a route's
     * preHandler, it runs at onRequest, before the body is read (plugins/auth.ts: authenticateFirst).
     */
    authenticate: preHandlerAsyncHookHandler;
    /** After authenticate, also before the body is read: 403 unless the caller is an admin. */
    requireAdmin: preHandlerAsyncHookHandler;
    /** The identity behind a token (same checks as authenticate), or null; for the Socket.IO handshake. */
    verifyToken(token: string): Promise<RequestUser | null>;
    /** Decrypted venue credentials of a user, for the engine only. Never log or send the result. */
    loadVenueAccount(userId: string): Promise<VenueAccount>;
  }
  interface FastifyRequest {
    /** Set by app.authenticate; read it only in routes that use that preHandler. */
    user: RequestUser;
  }
}
