// rate-limiter-flexible's index loads every store it supports (MongoDB, MySQL, Prisma, DynamoDB, etcd, ...): 37 modules
// and about 10 MB at every start. The server uses the memory store, the Redis one (only with REDIS_URL) and the answer
// type, each required from its own file of the package. Its own CommonJS modules, so `require` (as the index does).
import { createRequire } from 'node:module';
import type * as Flexible from 'rate-limiter-flexible';

const requireHere = createRequire(import.meta.url);

export const RateLimiterMemory = requireHere(
  'rate-limiter-flexible/lib/RateLimiterMemory.js',
) as typeof Flexible.RateLimiterMemory;
export type RateLimiterMemory = Flexible.RateLimiterMemory;

/** What a limiter rejects with when a key has no points left (also what `get` answers). */
export const RateLimiterRes = requireHere(
  'rate-limiter-flexible/lib/RateLimiterRes.js',
) as typeof Flexible.RateLimiterRes;
export type RateLimiterRes = Flexible.RateLimiterRes;

export type RateLimiterAbstract = Flexible.RateLimiterAbstract;

/** The Redis store, loaded at its first use (with REDIS_URL). */
export function loadRateLimiterRedis(): typeof Flexible.RateLimiterRedis {
  return requireHere('rate-limiter-flexible/lib/RateLimiterRedis.js') as typeof Flexible.RateLimiterRedis;
}
