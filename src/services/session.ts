import { createAuthService, type AuthService } from './auth/authService';
import { createLocalSessionStore } from './auth/sessionStorage';
import { createHttp, type Http } from './http';
import type { AppNotice } from './notify';

/**
 * The part of the services the entry chunk carries: the REST client and the auth service (sign in, token restore,
 * 401 → /login). Everything else (the domain streams, IndexedDB, the socket, RxJS) is built on top of it by
 * createAppServices, loaded with the signed-in layout; it plugs its sign-out work in through `onSignOut`.
 */
export interface Session {
  http: Http;
  auth: AuthService;
  /** Runs `hooks.beforeLogout` before an explicit logout and `hooks.onSignedOut` after any end of the session. */
  onSignOut(hooks: SignOutHooks): void;
  /** Called when a 401 ended the session (after `onSessionExpired`); returns the unsubscribe. */
  onExpired(listener: () => void): () => void;
}

export interface SignOutHooks {
  beforeLogout?: () => Promise<unknown>;
  onSignedOut?: (userId: string | null) => void;
}

export interface SessionOptions {
  /** A 401 ended the session: the router goes to /login. */
  onSessionExpired: () => void;
  /** Says why the session ended (the server's reason), as a toast. */
  notify: (notice: AppNotice) => void;
  /** The user's local data is wiped after every sign-out, whether or not the signed-in layer was ever loaded. */
  clearUserData: (userId: string | null) => void;
  fetch?: typeof fetch;
}

export function createSession(opts: SessionOptions): Session {
  const hooks: SignOutHooks[] = [];
  const expired = new Set<() => void>();
  // Set once auth exists; the HTTP client needs the token getter before.
  let auth: AuthService | null = null;
  const http = createHttp({
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    getToken: () => auth?.state.token ?? null,
    onUnauthorized: (reason) => {
      if (!auth?.state.isAuthenticated) return;
      auth.expire();
      // Say why the session ended (e.g. 'Your account has been deactivated. Contact an admin.'), once.
      if (reason) opts.notify({ level: 'warning', message: reason, key: 'session-ended' });
      opts.onSessionExpired();
      for (const l of [...expired]) l();
    },
  });
  auth = createAuthService({
    http,
    store: createLocalSessionStore(),
    beforeLogout: () => Promise.all(hooks.map((h) => h.beforeLogout?.().catch(() => undefined))),
    onSignedOut: (userId) => {
      for (const h of hooks) h.onSignedOut?.(userId);
      opts.clearUserData(userId);
    },
  });
  return {
    http,
    auth,
    onSignOut: (h) => void hooks.push(h),
    onExpired(listener) {
      expired.add(listener);
      return () => void expired.delete(listener);
    },
  };
}
