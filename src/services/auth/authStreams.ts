import { distinctUntilChanged, map, Observable } from 'rxjs';
import type { PublicUser } from '../../../contract/entities';
import type { AuthService } from './authService';
import type { AuthState } from './authState';

export interface AuthStreams {
  /** The current state on subscription, then every change (as a BehaviorSubject would). */
  state$: Observable<AuthState>;
  /** The signed-in user's id and token, or null; distinct, so a profile edit doesn't reconnect the socket. */
  session$: Observable<{ userId: string; token: string } | null>;
  user$: Observable<PublicUser | null>;
}

/** The signed-in layer's view of the auth service as streams (the service itself stays RxJS-free for the entry). */
export function authStreams(auth: AuthService): AuthStreams {
  const state$ = new Observable<AuthState>((sub) => {
    sub.next(auth.state);
    return auth.subscribe((s) => sub.next(s));
  });
  return {
    state$,
    session$: state$.pipe(
      map((s) => (s.isAuthenticated && s.user && s.token ? { userId: s.user._id, token: s.token } : null)),
      distinctUntilChanged((a, b) => a?.userId === b?.userId && a?.token === b?.token),
    ),
    user$: state$.pipe(
      map((s) => s.user),
      distinctUntilChanged(),
    ),
  };
}
