import { BehaviorSubject, distinctUntilChanged, filter, firstValueFrom, map, type Observable } from 'rxjs';
import type { LoginResponse, MessageResponse, RegisterBody, RegistrationStatusResponse, UserResponse } from '../../../contract/api';
import type { PublicUser } from '../../../contract/entities';
import type { TwoFactorChallengeResponse } from '../../../contract/guard';
import { ApiError, type Http } from '../http';
import { authReducer, initialAuthState, type AuthAction, type AuthState } from './authState';
import type { SessionStore } from './sessionStorage';

export interface AuthService {
  state$: Observable<AuthState>;
  /** The signed-in user's id and token, or null; distinct, so a profile edit doesn't reconnect the socket. */
  session$: Observable<{ userId: string; token: string } | null>;
  user$: Observable<PublicUser | null>;
  get state(): AuthState;
  restore(): void;
  /** Resolves once the restore has finished (the guard waits on it behind a spinner). */
  ready(): Promise<AuthState>;
  /** `challenge`: the password was right and the account uses two-factor sign-in; finish with `loginWithCode`. */
  login(email: string, password: string): Promise<LoginResult | { ok: 'challenge'; challenge: string }>;
  loginWithCode(challenge: string, code: string): Promise<LoginResult>;
  /**
   * Spec section 7's registration call: POST /auth/register; signed in on success. The failure message is the
   * server's, else 'Registration failed' (spec section 8).
   */
  register(body: RegisterBody): Promise<{ ok: true; user: PublicUser } | { ok: false; message: string; errors: { msg: string; path?: string }[] }>;
  /** Whether this server accepts registrations (GET /auth/registration); false when it cannot be asked. */
  registrationOpen(): Promise<boolean>;
  logout(): Promise<void>;
  /** Local end of the session without a server call (a 401 elsewhere). */
  expire(): void;
  updateUser(patch: Partial<PublicUser>): void;
  renewToken(token: string): void;
  refreshProfile(): Promise<void>;
}

export type LoginResult = { ok: true; user: PublicUser } | { ok: false; message: string; unexpected: boolean };

export interface AuthDeps {
  http: Http;
  store: SessionStore;
  /** Runs on an explicit logout while the session still holds, before the server ends it (a failure is ignored). */
  beforeLogout?: () => Promise<unknown>;
  /** Runs after the session ended (logout or 401): wipe caches, disconnect. */
  onSignedOut?: (userId: string | null) => void;
}

export function createAuthService(deps: AuthDeps): AuthService {
  const subject = new BehaviorSubject<AuthState>(initialAuthState);
  const dispatch = (a: AuthAction) => subject.next(authReducer(subject.value, a));

  const endSession = () => {
    const userId = subject.value.user?._id ?? null;
    deps.store.clear();
    dispatch({ type: 'logout' });
    deps.onSignedOut?.(userId);
  };

  return {
    state$: subject.asObservable(),
    session$: subject.pipe(
      map((s) => (s.isAuthenticated && s.user && s.token ? { userId: s.user._id, token: s.token } : null)),
      distinctUntilChanged((a, b) => a?.userId === b?.userId && a?.token === b?.token),
    ),
    user$: subject.pipe(map((s) => s.user), distinctUntilChanged()),
    get state() {
      return subject.value;
    },
    restore() {
      const { token, user } = deps.store.read();
      if (!token || !user) deps.store.clear();
      dispatch({ type: 'restored', token, user });
    },
    ready: () => firstValueFrom(subject.pipe(filter((s) => !s.loading))),
    async login(email, password) {
      dispatch({ type: 'loginStart' });
      try {
        const res = await deps.http.post<LoginResponse | TwoFactorChallengeResponse>('/auth/login', { username: email.trim(), password });
        if ('twoFactorRequired' in res) {
          dispatch({ type: 'loginFailure', message: '' });
          return { ok: 'challenge', challenge: res.challenge };
        }
        deps.store.write(res.token, res.user);
        dispatch({ type: 'loginSuccess', user: res.user, token: res.token });
        return { ok: true, user: res.user };
      } catch (err) {
        const unexpected = !(err instanceof ApiError) || err.status === 0;
        const message = err instanceof ApiError && err.serverMessage ? err.serverMessage : 'Login failed';
        deps.store.clear();
        dispatch({ type: 'loginFailure', message });
        return { ok: false, message, unexpected };
      }
    },
    async loginWithCode(challenge, code) {
      dispatch({ type: 'loginStart' });
      try {
        const res = await deps.http.post<LoginResponse>('/auth/login/2fa', { challenge, code });
        deps.store.write(res.token, res.user);
        dispatch({ type: 'loginSuccess', user: res.user, token: res.token });
        return { ok: true, user: res.user };
      } catch (err) {
        const unexpected = !(err instanceof ApiError) || err.status === 0;
        const message = err instanceof ApiError && err.serverMessage ? err.serverMessage : 'Login failed';
        dispatch({ type: 'loginFailure', message });
        return { ok: false, message, unexpected };
      }
    },
    async register(body) {
      try {
        const res = await deps.http.post<LoginResponse>('/auth/register', body);
        deps.store.write(res.token, res.user);
        dispatch({ type: 'loginSuccess', user: res.user, token: res.token });
        return { ok: true, user: res.user };
      } catch (err) {
        const message = err instanceof ApiError && err.serverMessage ? err.serverMessage : 'Registration failed';
        return { ok: false, message, errors: err instanceof ApiError ? err.errors : [] };
      }
    },
    async registrationOpen() {
      try {
        return (await deps.http.get<RegistrationStatusResponse>('/auth/registration')).open === true;
      } catch {
        return false;
      }
    },
    async logout() {
      try {
        await deps.beforeLogout?.().catch(() => undefined);
        await deps.http.post<MessageResponse>('/auth/logout');
      } catch {
        // Logout always clears the session, even when the server call fails.
      } finally {
        endSession();
      }
    },
    expire() {
      if (subject.value.isAuthenticated) endSession();
    },
    updateUser(patch) {
      dispatch({ type: 'userUpdated', patch });
      const user = subject.value.user;
      if (user) deps.store.writeUser(user);
    },
    renewToken(token) {
      deps.store.writeToken(token);
      dispatch({ type: 'tokenRenewed', token });
    },
    async refreshProfile() {
      const res = await deps.http.get<UserResponse>('/auth/profile');
      if (subject.value.isAuthenticated) {
        dispatch({ type: 'userUpdated', patch: res.user });
        deps.store.writeUser(subject.value.user as PublicUser);
      }
    },
  };
}
