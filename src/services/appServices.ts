import { combineLatest, debounceTime, EMPTY, filter, fromEvent, map, merge, Observable, switchMap, timer } from 'rxjs';
import type { PublicUser } from '../../contract/entities';
import { SERVER_EVENTS } from '../../contract/events';
import { createUserCache, type UserCache } from '../cache/db';
import { createActions, type Actions } from './actions';
import type { AuthService } from './auth/authService';
import { authStreams, type AuthStreams } from './auth/authStreams';
import { createBalancesService, type BalancesService } from './balances/balancesService';
import { ApiError, type Http } from './http';
import { createNotifier, type Notifier } from './notify';
import { createRealtimeService, type RealtimeDeps, type RealtimeService } from './realtime/realtimeService';
import { socketLink } from './realtime/socketLink';
import { createPairWatch, type PairWatch } from './realtime/pairWatch';
import { createMarketService, type MarketService } from './market/marketService';
import { createOfflineServices, networkStatus, refuseWhenOffline, type OfflineServices } from './offline';
import { createOpportunitiesService, type OpportunitiesService } from './opportunities/opportunitiesService';
import { createPreferencesService, type PreferencesService } from './preferences/devicePreferences';
import { createPricesService, type PricesService } from './prices/pricesService';
import { createSnapshotSource, SNAPSHOT_CHANGING_EVENTS } from './snapshot/firstPaint';
import { createSpreadsService, type SpreadsService } from './spreads/spreadsService';
import { createStatsService, type StatsService } from './stats/statsService';
import { eventsOf, type DomainDeps } from './streams/domainDeps';
import type { Session } from './session';
import { createTradesService, type TradesService } from './trades/tradesService';
import { createTradesExport, type TradesExport } from './trades/tradesExport';
import { createPushDevice, type PushDevice } from './notifications/pushDevice';
import { createNotificationHistoryService, type NotificationHistoryService } from './notifications/historyService';

/** Everything the screens use, built once by the composition root and handed to routes through router context. */
export interface AppServices {
  http: Http;
  auth: AuthService;
  /** The auth service's state as streams (state$, session$, user$). */
  authStreams: AuthStreams;
  realtime: RealtimeService;
  /** Which pairs' prices the screens on show want from the socket (every pair's on the Dashboard, none on Trades). */
  pairWatch: PairWatch;
  /** One service a domain, each a set of live streams (cache, then REST snapshot, then socket deltas). */
  prices: PricesService;
  opportunities: OpportunitiesService;
  balances: BalancesService;
  stats: StatsService;
  trades: TradesService;
  /** Web push on this device: subscribe, preferences, a test notification. */
  push: PushDevice;
  /** What the user was sent (push, Telegram, the app), with read state; cached for offline reading. */
  notificationHistory: NotificationHistoryService;
  /** Trades as CSV: the server's export online, the device's copy offline. */
  tradesExport: TradesExport;
  /** The last day of spread history per symbol, kept in IndexedDB. */
  spreads: SpreadsService;
  /** Which market the server trades on, for the label every screen shows. */
  market: MarketService;
  actions: Actions;
  notifier: Notifier;
  /** This device's preferences (localStorage 'preferences'), e.g. opportunity toasts on or off. */
  preferences: PreferencesService;
  /** Offline state for the banner (src/services/offline). */
  offline: OfflineServices;
  /** What every domain service is built from; the cockpit's services are built from it on the screens that use them. */
  domain: DomainDeps;
  /** Emits when a 401 ended the session: the router goes to /login. */
  sessionExpired$: Observable<void>;
}

export interface AppServicesOptions {
  /** The entry's REST client and auth service (src/services/session.ts): the signed-in layer builds on them. */
  session: Session;
  /** Tests hand in a socket link of their own (and a fetch of their own to the session). */
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

  const { http, auth } = opts.session;
  const push = createPushDevice(http);
  opts.session.onSignOut({
    // Signing out of this device ends its notifications too (a session that merely expired keeps them).
    beforeLogout: () => push.disable(),
    // The session wipes the user's databases after this; an open connection would block the deletion.
    onSignedOut: (userId) => {
      if (!userId) return;
      caches.get(userId)?.close();
      caches.delete(userId);
    },
  });
  const a = authStreams(auth);
  // The profile is cached with the rest of the user's data. Debounce before the null check, so a logout that follows
  // an edit writes nothing into the database being deleted.
  a.user$
    .pipe(
      debounceTime(400),
      filter((u): u is PublicUser => u !== null),
    )
    .subscribe((u) => void cacheFor(u._id).writeSnapshot('profile', u));

  a.session$.pipe(filter((s) => s !== null)).subscribe((s) => void push.signedIn(s.userId));

  const backOnline$ = typeof window === 'undefined' ? undefined : fromEvent(window, 'online');
  const pairWatch = createPairWatch();
  const realtime = createRealtimeService({
    session$: a.session$,
    connect: opts.connect ?? ((s) => socketLink(s, location.origin, pairWatch.watched$)),
    online$: backOnline$,
  });
  // The server dropped the live connection: the session may have been ended (deactivation, deletion, password change
  // elsewhere) while this tab made no call. One REST call finds out; its 401 ends the session here with the reason.
  // Asked a second later, and only if the link is still down: a password change drops the socket before its answer
  // (with the new token) arrives, and the reconnect with that token needs no probe.
  realtime.state$
    .pipe(switchMap((s) => (s === 'retrying' ? timer(1000) : EMPTY)))
    .subscribe(() => void auth.refreshProfile().catch(() => undefined));
  // The engine paused or halted the user's trading: the settings the user sees change with it.
  eventsOf(realtime.events$, SERVER_EVENTS.notice).subscribe((notice) => {
    if (notice.user) auth.updateUser(notice.user);
  });

  // One GET /snapshot for the first paint of every stream below; a reconnect drops it so the resync asks again, and so
  // does every event that changes what it holds. Its user record refreshes the stored one (settings changed on another
  // device, an engine pause while away).
  const firstPaint = createSnapshotSource({
    http,
    invalidate$: merge(
      realtime.reconnected$,
      realtime.events$.pipe(filter((e) => SNAPSHOT_CHANGING_EVENTS.has(e.name))),
    ),
    onAnswer: (s) => {
      if (auth.state.user?._id === s.user._id) auth.updateUser(s.user);
    },
  });
  const domain: DomainDeps = {
    http,
    firstPaint,
    session$: a.session$,
    events$: realtime.events$,
    reconnected$: realtime.reconnected$,
    cacheFor,
    onLoadError: (message, err) => {
      // Spec section 8: no load-failure toasts on 401 (the session is over); offline the banner says it already.
      if (err instanceof ApiError && err.unauthorized) return;
      if (typeof navigator !== 'undefined' && navigator.onLine === false) return;
      // The server could not be reached at all (a network failure, status 0): the browser may still believe it is
      // online (captive Wi-Fi, server down), and the offline banner, not four 'Failed to load' toasts, says so.
      if (err instanceof ApiError && err.status === 0) return;
      notifier.notify({ level: 'error', message, key: message });
    },
  };
  const online$ = networkStatus();
  const reachable$ = combineLatest([online$, realtime.state$]).pipe(
    map(([online, link]) => online && link !== 'retrying' && link !== 'gave-up'),
  );
  const prices = createPricesService({ ...domain, user$: a.user$, reachable$ });
  const balances = createBalancesService(domain);
  const stats = createStatsService({ ...domain, reloads$: balances.reloads$ });
  const trades = createTradesService({ ...domain, online$ });
  const opportunities = createOpportunitiesService(domain);
  const market = createMarketService(domain);
  const spreads = createSpreadsService(domain);
  const offline = createOfflineServices({
    online$,
    connection$: realtime.state$,
    streams: [prices.prices$, balances.balances$, stats.stats$, trades.recent$],
  });

  return {
    http,
    auth,
    authStreams: a,
    realtime,
    pairWatch,
    prices,
    opportunities,
    balances,
    stats,
    trades,
    tradesExport: createTradesExport({ http, cacheFor }),
    push,
    notificationHistory: createNotificationHistoryService(domain),
    spreads,
    market,
    // Writes are refused offline (never queued): the screens show the refusal as the error toast, forms keep input.
    actions: refuseWhenOffline(
      createActions(http),
      () => typeof navigator === 'undefined' || navigator.onLine !== false,
    ),
    offline,
    notifier,
    preferences: createPreferencesService(),
    domain,
    sessionExpired$: new Observable<void>((sub) => opts.session.onExpired(() => sub.next())),
  };
}
