// Packages a start does not need, loaded at their first use instead: the Redis client and its Socket.IO adapter (only
// with REDIS_URL) and web-push (only to send a notification or to create a first VAPID key pair). Loading them cost a
// start about 160 ms of CPU and 40 MB of resident memory (bench/startup.ts, bench/memory.ts). Their call sites are
// synchronous, hence require rather than import(); the packages stay outside the compiled bundle (server/compile.js),
// so this resolves them from node_modules exactly as a static import would.
import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/** The package's CommonJS exports, typed by the caller (`typeof import` of a type-only import). */
export function loadPackage<T>(name: 'ioredis' | '@socket.io/redis-adapter' | 'web-push'): T {
  return requireHere(name) as T;
}
