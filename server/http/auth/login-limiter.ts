// Failed sign-ins are counted per account and per client address; past the limit both are refused for a while,
// which stops password guessing against one account and spraying from one address. Counters live in Redis when
// REDIS_URL is set, so every API instance sees the same counts.
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface LoginLimits {
  /** Failed attempts per account within the window. */
  perAccount: number;
  /** Failed attempts per client address within the window. */
  perAddress: number;
  windowSeconds: number;
  /** Prefix of the counters' keys; instances that must share counts share it (tests use a fresh one). */
  namespace?: string;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { perAccount: 5, perAddress: 20, windowSeconds: 15 * 60 };

export interface LoginLimiter {
  /** Milliseconds until sign-in may be tried again, or 0 when it may be tried now. */
  blockedFor(account: string, address: string): Promise<number>;
  recordFailure(account: string, address: string): Promise<void>;
  recordSuccess(account: string): Promise<void>;
  close(): Promise<void>;
}

export function createLoginLimiter(limits: LoginLimits, redisUrl?: string): LoginLimiter {
  const redis = redisUrl ? new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false }) : null;
  // A Redis outage must not lock everyone out nor crash the process: errors are swallowed here and counting
  // falls back to this instance's memory (insuranceLimiter).
  redis?.on('error', () => undefined);
  const make = (points: number, keyPrefix: string): RateLimiterAbstract => {
    const memory = new RateLimiterMemory({ points, duration: limits.windowSeconds, keyPrefix });
    if (!redis) return memory;
    return new RateLimiterRedis({ storeClient: redis, points, duration: limits.windowSeconds, keyPrefix, insuranceLimiter: memory });
  };
  const ns = limits.namespace ?? 'arb';
  const byAccount = make(limits.perAccount, `${ns}:login-fail-account`);
  const byAddress = make(limits.perAddress, `${ns}:login-fail-ip`);
  const accountKey = (account: string) => account.trim().toLowerCase();

  const remaining = async (limiter: RateLimiterAbstract, key: string, points: number): Promise<number> => {
    const res = await limiter.get(key);
    return res && res.consumedPoints >= points ? Math.max(res.msBeforeNext, 1000) : 0;
  };
  const consume = async (limiter: RateLimiterAbstract, key: string): Promise<void> => {
    // consume() rejects once the limit is passed; that is exactly the state we want recorded.
    await limiter.consume(key).catch(() => undefined);
  };

  return {
    blockedFor: async (account, address) =>
      Math.max(await remaining(byAccount, accountKey(account), limits.perAccount), await remaining(byAddress, address, limits.perAddress)),
    recordFailure: async (account, address) => {
      await Promise.all([consume(byAccount, accountKey(account)), consume(byAddress, address)]);
    },
    recordSuccess: async (account) => {
      await byAccount.delete(accountKey(account)).catch(() => undefined);
    },
    close: async () => {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
