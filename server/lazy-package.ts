// Packages a start does not need, loaded at their first use instead: the Redis client and its Socket.IO adapter (only
// with REDIS_URL) and web-push (only to send a notification or to create a first VAPID key pair). Each imported on its
// own into a bare Node process costs ioredis 87 ms of CPU and 23 MB, the adapter 38 ms and 12 MB, web-push 33 ms and
// 12 MB (partly shared). Their call sites are synchronous, hence require rather than import(); the packages stay
// outside the compiled bundle (server/compile.js), so this resolves them from node_modules as a static import would.
import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/** The package's CommonJS exports, typed by the caller (`typeof import` of a type-only import). */
export function loadPackage<T>(name: 'ioredis' | '@socket.io/redis-adapter' | 'web-push'): T {
  return requireHere(name) as T;
}
