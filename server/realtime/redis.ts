// Scale-out: with REDIS_URL every instance's Socket.IO server shares rooms through Redis pub/sub, so an event emitted
// on the engine's instance reaches clients connected to any instance. Behind a load balancer, the polling fallback
// needs sticky sessions (its requests must reach the instance that holds the session); websockets do not.
import type { createAdapter as CreateAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { loadPackage } from '../lazy-package';
import type { RealtimeLogger, RealtimeServer } from './types';

export interface RedisFanout {
  /** Resolves once this instance's subscriptions are registered in Redis (events from others will arrive). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** Longest wait between two connection attempts to an unreachable Redis. */
export const REDIS_MAX_RETRY_MS = 60_000;
/** While Redis stays unreachable, at most one reminder per connection in this long. */
export const REDIS_WARNING_INTERVAL_MS = 10 * 60_000;

/** Reconnection delay after `attempt` failures in a row: 0.5 s, 1 s, 2 s, ... up to a minute. */
export function redisRetryDelay(attempt: number): number {
  return Math.min(500 * 2 ** Math.max(0, attempt - 1), REDIS_MAX_RETRY_MS);
}

/**
 * Logs an outage once when it starts, a reminder now and then while it lasts, and once when it ends: an unreachable
 * REDIS_URL used to write a warning per connection several times a second.
 */
function reportOutages(client: Redis, role: string, logger: RealtimeLogger): void {
  let lastWarning: number | null = null;
  client.on('error', (error: Error) => {
    const now = Date.now();
    if (lastWarning !== null && now - lastWarning < REDIS_WARNING_INTERVAL_MS) return;
    lastWarning = now;
    logger.warn(
      { err: error.message, role },
      `realtime: redis unreachable; retrying with growing delays (at most ${REDIS_MAX_RETRY_MS / 1000} s apart)`,
    );
  });
  client.on('ready', () => {
    if (lastWarning !== null) logger.info({ role }, 'realtime: redis connection restored');
    lastWarning = null;
  });
}

export function useRedisAdapter(
  io: RealtimeServer,
  redisUrl: string,
  keyPrefix: string,
  logger: RealtimeLogger,
): RedisFanout {
  const { Redis: RedisClient } = loadPackage<{ Redis: typeof Redis }>('ioredis');
  const { createAdapter } = loadPackage<{ createAdapter: typeof CreateAdapter }>('@socket.io/redis-adapter');
  const pub = new RedisClient(redisUrl, { maxRetriesPerRequest: null, retryStrategy: redisRetryDelay });
  const sub = pub.duplicate();
  // ioredis reconnects on its own; an 'error' listener also keeps the event from crashing the process.
  reportOutages(pub, 'pub', logger);
  reportOutages(sub, 'sub', logger);
  io.adapter(createAdapter(pub, sub, { key: keyPrefix }));
  // The adapter issued its SUBSCRIBE commands on `sub`; a PING on the same connection answers after them.
  const ready = sub.ping().then(() => undefined);
  ready.catch(() => undefined);
  return {
    ready,
    async close() {
      // QUIT waits for a connection that may never come back; an unconnected client is just disconnected.
      await Promise.allSettled(
        [pub, sub].map((client) => (client.status === 'ready' ? client.quit() : Promise.resolve(client.disconnect()))),
      );
    },
  };
}
