import { debounceTime, filter, fromEvent, map, type Observable } from 'rxjs';
import type { PublicUser } from '../../contract/entities';
import { clearUserCaches, createUserCache, type UserCache } from '../cache/db';
import { createActions, type Actions } from './actions';
import { createAuthService, type AuthService } from './auth/authService';
import { createLocalSessionStore } from './auth/sessionStorage';
import { createDataService, type DataService } from './streams/dataService';
import { ApiError, createHttp, type Http } from './http';
import { createNotifier, type Notifier } from './notify';
import { createRealtimeService, type RealtimeDeps, type RealtimeService } from './realtime/realtimeService';
import { socketLink } from './realtime/socketLink';
import { createOfflineServices, refuseWhenOffline, type OfflineServices } from './offline';

/** Everything the screens use, built once by the composition root and handed to routes through router context. */
export interface AppServices {
  http: Http;
  auth: AuthService;
  realtime: RealtimeService;
  data: DataService;
  actions: Actions;
  notifier: Notifier;
  /** Offline state for the banner, and the trade-history sync (src/services/offline). */
  offline: OfflineServices;
  /** The signed-in user's IndexedDB cache (null when signed out). */
  currentCache(): UserCache | null;
  /** Emits when a 401 ended the session: the router goes to /login. */
  sessionExpired$: Observable<void>;
}

export interface AppServicesOptions {
  onSessionExpired: () => void;
  /** Tests hand in a fetch that answers like the server, and a socket link of their own. */
  fetch?: typeof fetch;
  connect?: RealtimeDeps['connect'];
}

export function createAppServices(opts: AppServicesOptions): AppServices {
  const notifier = createNotifier();
  const caches = new Map<string, UserCache>();
  const cacheFor = (userId: string) => {
    let c = caches.get(userId);
    if (!c) caches.set(userId, (c = createUserCache(userId)));
    return c;
  };

  // Set once auth exists; the HTTP client needs the token getter before.
  let auth: AuthService | null = null;
  let expiredHandler: () => void = () => {};
  const http = createHttp({
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    getToken: () => auth?.state.token ?? null,
    onUnauthorized: () => {
      if (!auth?.state.isAuthenticated) return;
      auth.expire();
      expiredHandler();
    },
  });
  auth = createAuthService({
    http,
    store: createLocalSessionStore(),
    onSignedOut: (userId) => {
      if (userId) {
        caches.get(userId)?.close();
        caches.delete(userId);
      }
      void clearUserCaches(userId);
    },
  });
  const a = auth;
  // The profile is cached with the rest of the user's data. Debounce before the null check, so a logout that follows
  // an edit writes nothing into the database being deleted.
  a.user$.pipe(debounceTime(400), filter((u): u is PublicUser => u !== null)).subscribe((u) => void cacheFor(u._id).writeSnapshot('profile', u));

  const online$ = typeof window === 'undefined' ? undefined : fromEvent(window, 'online');
  const realtime = createRealtimeService({ session$: a.session$, connect: opts.connect ?? ((s) => socketLink(s)), online$ });

  const data = createDataService({
    http,
    session$: a.session$,
    user$: a.user$,
    events$: realtime.events$,
    reconnected$: realtime.reconnected$,
    cacheFor,
    onLoadError: (message, err) => {
      // Spec section 8: no load-failure toasts on 401 (the session is over); offline the banner says it already.
      if (err instanceof ApiError && err.unauthorized) return;
      if (typeof navigator !== 'undefined' && navigator.onLine === false) return;
      notifier.notify({ level: 'error', message, key: message });
    },
  });

  const offline = createOfflineServices({
    http,
    session$: a.session$,
    connection$: realtime.state$,
    events$: realtime.events$,
    reconnected$: realtime.reconnected$,
    cacheFor,
    streams: [data.prices$, data.balances$, data.stats$, data.trades$],
  });

  const expired$ = new (class extends EventTarget {})();
  expiredHandler = () => {
    expired$.dispatchEvent(new Event('expired'));
    opts.onSessionExpired();
  };

  return {
    http,
    auth: a,
    realtime,
    data,
    // Writes are refused offline (never queued): the screens show the refusal as the error toast, forms keep input.
    actions: refuseWhenOffline(createActions(http), () => typeof navigator === 'undefined' || navigator.onLine !== false),
    offline,
    notifier,
    currentCache: () => {
      const id = a.state.user?._id;
      return id ? cacheFor(id) : null;
    },
    sessionExpired$: fromEvent(expired$, 'expired').pipe(map(() => undefined)),
  };
}
