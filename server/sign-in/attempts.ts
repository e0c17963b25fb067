// Sign-in throttling as the OWASP authentication guidance describes it: failures are counted per account *and
// client address pair*, and past a few free attempts each further attempt from that pair must wait a delay that
// doubles with every failure (up to a ceiling). The owner signing in from another address is not affected, so
// nobody can lock an account (the admin's included) out by failing on purpose; a password guesser on one address
// slows down exponentially. A wider guard per address, with a much higher threshold, slows one address spraying
// many accounts. Behind a reverse proxy, set TRUST_PROXY so that the address is the client's and not the proxy's.
// Counters live in Redis when REDIS_URL is set, so every API instance sees the same counts.
//
// The same counters (createCounters) also limit changes of the sign-in identity (identity.ts) and wrong codes at every
// two-factor step (codes.ts).
import type { Redis } from 'ioredis';
import { loadRateLimiterRedis, RateLimiterMemory, type RateLimiterAbstract } from '../security/rate-limiter';
import { loadPackage } from '../lazy-package';

export interface LoginLimits {
  /** Failures per account-and-address pair before delays start. */
  freePerPair: number;
  /** Failures per address (any accounts) before delays start for that address. */
  freePerAddress: number;
  /** First delay in seconds; each further failure doubles it. */
  baseDelaySeconds: number;
  /** Longest delay in seconds. */
  maxDelaySeconds: number;
  /** Failures are forgotten this long after the first one of a run. */
  windowSeconds: number;
  /** Prefix of the counters' keys; instances that must share counts share it (tests use a fresh one). */
  namespace?: string;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  freePerPair: 5,
  freePerAddress: 100,
  baseDelaySeconds: 1,
  maxDelaySeconds: 15 * 60,
  windowSeconds: 60 * 60,
};

/** Seconds to wait after the `failures`-th failure of a run (0 while still within the free attempts). */
export function delayAfter(
  failures: number,
  free: number,
  limits: Pick<LoginLimits, 'baseDelaySeconds' | 'maxDelaySeconds'>,
): number {
  if (failures < free) return 0;
  return Math.min(limits.baseDelaySeconds * 2 ** (failures - free), limits.maxDelaySeconds);
}

export interface LoginLimiter {
  /** Milliseconds until sign-in may be tried again from this address for this account, or 0 when it may be now. */
  blockedFor(account: string, address: string): Promise<number>;
  recordFailure(account: string, address: string): Promise<void>;
  recordSuccess(account: string, address: string): Promise<void>;
}

/** Makes rate-limit counters, in Redis when a URL is given (shared by every instance), else in this process. */
export interface Counters {
  make(points: number, durationSeconds: number, keyPrefix: string): RateLimiterAbstract;
  close(): Promise<void>;
}

export function createCounters(redisUrl?: string): Counters {
  const redis = redisUrl
    ? new (loadPackage<{ Redis: typeof Redis }>('ioredis').Redis)(redisUrl, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        lazyConnect: false,
      })
    : null;
  // A Redis outage must not lock everyone out nor crash the process: errors are swallowed here and counting
  // falls back to this instance's memory (insuranceLimiter).
  redis?.on('error', () => undefined);
  return {
    make: (points, duration, keyPrefix) => {
      const memory = new RateLimiterMemory({ points, duration, keyPrefix });
      if (!redis) return memory;
      const RateLimiterRedis = loadRateLimiterRedis();
      return new RateLimiterRedis({ storeClient: redis, points, duration, keyPrefix, insuranceLimiter: memory });
    },
    close: async () => {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

export function createLoginLimiter(limits: LoginLimits, counters: Counters): LoginLimiter {
  const make = counters.make;
  const ns = limits.namespace ?? 'arb';
  // Counters: effectively unlimited points; only the count matters. Waits: one point, set by block().
  const failures = make(1_000_000, limits.windowSeconds, `${ns}:login-failures`);
  const waits = make(1, limits.maxDelaySeconds, `${ns}:login-wait`);
  const pairKey = (account: string, address: string) => `${account.trim().toLowerCase()}|${address}`;
  const addressKey = (address: string) => `address|${address}`;

  const waitLeft = async (key: string): Promise<number> => {
    const res = await waits.get(key).catch(() => null);
    return res && res.consumedPoints > 1 ? Math.max(res.msBeforeNext, 1) : 0;
  };
  const fail = async (key: string, free: number): Promise<void> => {
    const res = await failures.consume(key).catch(() => null);
    const delay = res ? delayAfter(res.consumedPoints, free, limits) : 0;
    if (delay > 0) await waits.block(key, delay).catch(() => undefined);
  };

  return {
    blockedFor: async (account, address) =>
      Math.max(await waitLeft(pairKey(account, address)), await waitLeft(addressKey(address))),
    recordFailure: async (account, address) => {
      await Promise.all([
        fail(pairKey(account, address), limits.freePerPair),
        fail(addressKey(address), limits.freePerAddress),
      ]);
    },
    recordSuccess: async (account, address) => {
      const key = pairKey(account, address);
      await Promise.all([failures.delete(key).catch(() => undefined), waits.delete(key).catch(() => undefined)]);
    },
  };
}
