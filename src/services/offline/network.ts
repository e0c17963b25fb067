import { distinctUntilChanged, fromEvent, map, merge, of, shareReplay, startWith, type Observable } from 'rxjs';

/** What the network status needs from the browser; tests pass a stand-in. */
export interface NetworkEnv {
  isOnline(): boolean;
  events: EventTarget;
}

export const browserNetworkEnv = (): NetworkEnv | null =>
  typeof window === 'undefined' || typeof navigator === 'undefined'
    ? null
    : { isOnline: () => navigator.onLine !== false, events: window };

/** The browser's online/offline state, replayed: true online, false offline. Without a window: always online. */
export function networkStatus(env: NetworkEnv | null = browserNetworkEnv()): Observable<boolean> {
  if (!env) return of(true);
  return merge(fromEvent(env.events, 'online'), fromEvent(env.events, 'offline')).pipe(
    map(() => env.isOnline()),
    startWith(env.isOnline()),
    distinctUntilChanged(),
    shareReplay({ bufferSize: 1, refCount: false }),
  );
}
