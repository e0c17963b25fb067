// The Socket.IO gateway: same origin as the app (path /socket.io), token handshake, own-room authorization, engine
// event fan-out, optional Redis adapter.
//
// Revocation: a socket keeps the token it connected with. Every `revalidateMs` (default one minute) the gateway
// verifies each distinct token of its local sockets again and disconnects the sockets whose token no longer resolves
// (logout, password change, deactivation, deletion, expiry). The core calls `revalidate(userId)` right after revoking
// (app.revocations$) to make it immediate for that user's sockets; with Redis that request reaches every instance.
// Expiry needs no round: each socket is dropped by a timer set to its token's `exp` when it connects.
import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { EMPTY } from 'rxjs';
import type { Observable } from 'rxjs';
import type { EngineEvent } from '../engine/events';
import { periodForHz } from './coalesce';
import { startFanout } from './fanout';
import { safeVerify, tokenExpiry, tokenFromHandshake } from './identity';
import type { VerifyToken } from './identity';
import { useRedisAdapter } from './redis';
import type { RedisFanout } from './redis';
import { createRevalidator } from './revalidation';
import { registerRoomHandlers } from './rooms';
import { joinEveryPriceRoom, registerWatchHandlers } from './watch';
import { SIGNED_IN_ROOM } from './types';
import type { RealtimeLogger, RealtimeServer, RealtimeSocket } from './types';

export const UNAUTHORIZED = 'Unauthorized';

export interface RealtimeOptions {
  verifyToken: VerifyToken;
  /** The engine's events; omit on an API-only instance (its clients still get events through Redis). */
  events$?: Observable<EngineEvent>;
  /** Most price updates per symbol per second; Infinity turns coalescing off (benchmarks). */
  priceHz: number;
  redisUrl?: string;
  /** Channel prefix in Redis; instances that share events must share it. */
  redisKey?: string;
  logger: RealtimeLogger;
  revalidateMs?: number;
}

export interface Realtime {
  io: RealtimeServer;
  /** Resolves when the gateway can deliver events from other instances (at once without Redis). */
  ready: Promise<void>;
  /**
   * Re-check tokens now, on every instance: all sockets, or only one user's (what a revocation affects).
   * Resolves when the local check is done.
   */
  revalidate(userId?: string): Promise<void>;
  close(): Promise<void>;
}

/** setTimeout's longest delay (about 24.8 days); a later expiry is reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Disconnects the socket when its token expires, as REST starts answering 401 then (not at the next round). */
function dropAtExpiry(socket: RealtimeSocket, logger: RealtimeLogger): void {
  const expiresAt = tokenExpiry(socket.data.token);
  if (expiresAt === null) return;
  let timer: NodeJS.Timeout | undefined;
  const wait = () => {
    const left = expiresAt - Date.now();
    if (left <= 0) {
      logger.info({ userId: socket.data.user.id }, 'realtime: session expired, socket disconnected');
      socket.disconnect(true);
      return;
    }
    timer = setTimeout(wait, Math.min(left, MAX_TIMER_MS));
    timer.unref();
  };
  wait();
  socket.once('disconnect', () => clearTimeout(timer));
}

export function attachRealtime(httpServer: HttpServer, options: RealtimeOptions): Realtime {
  const { verifyToken, logger } = options;
  const io: RealtimeServer = new Server(httpServer, {
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    serveClient: false,
    // With deflate off, a broadcast's WebSocket frame is built once and written to every socket (socket.io-adapter
    // pre-computes it). With it on, ws compresses every message for each socket (its size threshold applies only
    // without context takeover): about 8× the server CPU per delivered message in bench/fanout.ts.
    perMessageDeflate: false,
    // Clients only ever send room names; a megabyte (the default) of buffered input per socket is an easy abuse.
    maxHttpBufferSize: 16 * 1024,
  });

  let redis: RedisFanout | null = null;
  if (options.redisUrl) redis = useRedisAdapter(io, options.redisUrl, options.redisKey ?? 'arb-realtime', logger);

  // Counts revalidation requests. A handshake whose check overlapped one verifies again, so a token revoked while it
  // was being checked cannot slip in after the round that should have caught it.
  let revocationEpoch = 0;
  const verifyCurrent = async (token: string) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const epoch = revocationEpoch;
      const user = await safeVerify(verifyToken, token);
      if (!user || epoch === revocationEpoch) return user;
    }
    return null;
  };

  io.use((socket, next) => {
    const token = tokenFromHandshake(socket.handshake);
    if (!token) return next(new Error(UNAUTHORIZED));
    void verifyCurrent(token).then((user) => {
      if (!user) return next(new Error(UNAUTHORIZED));
      socket.data = { user, token };
      next();
    });
  });

  io.on('connection', (socket) => {
    void socket.join(SIGNED_IN_ROOM);
    joinEveryPriceRoom(socket);
    registerRoomHandlers(socket, logger);
    registerWatchHandlers(socket, logger);
    dropAtExpiry(socket, logger);
  });

  const revalidateRound = createRevalidator(io, verifyToken, logger);
  const revalidateLocal = (userId?: string) => {
    revocationEpoch += 1;
    return revalidateRound(userId);
  };
  io.on('revalidate', (userId) => void revalidateLocal(userId ?? undefined));
  const timer = setInterval(() => void revalidateLocal(), options.revalidateMs ?? 60_000);
  timer.unref();

  const fanout = startFanout(io, options.events$ ?? EMPTY, periodForHz(options.priceHz), logger);

  return {
    io,
    ready: redis ? redis.ready : Promise.resolve(),
    async revalidate(userId) {
      if (redis) io.serverSideEmit('revalidate', userId ?? null);
      await revalidateLocal(userId);
    },
    async close() {
      clearInterval(timer);
      fanout.unsubscribe();
      // io.close() also closes the HTTP server; the app owns that, so only disconnect the sockets and engine.
      // `local`: with the Redis adapter a plain disconnectSockets() would reach every instance's sockets.
      io.local.disconnectSockets(true);
      io.engine.close();
      await redis?.close();
    },
  };
}
