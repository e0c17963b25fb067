// Live sessions remembered between requests, so an authenticated read does not ask the database whether its session
// still stands. Correctness rests on invalidation, never on time: every revocation (logout, password change,
// deactivation, deletion, a role or active flag changed by any code or process) reaches every instance through the
// database's auth-change feed (server/db/auth-changes.ts), and this instance's own revocations also through
// app.revocations$ before their response is sent. While the feed is not live nothing is cached.
import type { Role } from '../../../contract/domain';

export interface CachedSession {
  userId: string;
  role: Role;
  sessionId: string;
  /** The session's own expiry (ms since epoch): an entry never outlives it. */
  expiresAt: number;
}

export interface SessionCacheOptions {
  /** Most sessions kept; the oldest entry goes first when full. */
  maxEntries?: number;
  /** Longest an entry is trusted even without any announcement (a bound on a lost notification). */
  maxAgeMs?: number;
  now?: () => number;
}

export interface SessionCache {
  /** The cached session when it may be used: same user, not expired, not too old, caching on. */
  get(sessionId: string, userId: string): CachedSession | undefined;
  /** Taken before reading the session from the database; `put` with it stores only if nothing changed meanwhile. */
  generation(): number;
  put(generation: number, session: CachedSession): void;
  /** Forget everything known of this user's sessions. */
  forgetUser(userId: string): void;
  /** Caching on (the feed is live) or off (it is not: everything is forgotten). */
  setEnabled(enabled: boolean): void;
  readonly size: number;
}

export function createSessionCache(options: SessionCacheOptions = {}): SessionCache {
  const maxEntries = options.maxEntries ?? 10_000;
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { session: CachedSession; storedAt: number }>();
  // A read that began before a change must not store what it read: any change moves the generation on.
  let generation = 0;
  let enabled = false;

  const clear = () => {
    generation++;
    entries.clear();
  };

  return {
    get(sessionId, userId) {
      if (!enabled) return undefined;
      const entry = entries.get(sessionId);
      if (!entry) return undefined;
      const at = now();
      if (entry.session.userId !== userId || at >= entry.session.expiresAt || at - entry.storedAt > maxAgeMs) {
        entries.delete(sessionId);
        return undefined;
      }
      return entry.session;
    },
    generation: () => generation,
    put(seen, session) {
      if (!enabled || seen !== generation) return;
      if (entries.size >= maxEntries && !entries.has(session.sessionId)) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(session.sessionId, { session, storedAt: now() });
    },
    forgetUser(userId) {
      generation++;
      for (const [id, entry] of entries) if (entry.session.userId === userId) entries.delete(id);
    },
    setEnabled(on) {
      clear();
      enabled = on;
    },
    get size() {
      return entries.size;
    },
  };
}
