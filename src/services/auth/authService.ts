import type {
  LoginResponse,
  MessageResponse,
  RegisterBody,
  RegistrationStatusResponse,
  UserResponse,
} from '../../../contract/api';
import type { PublicUser } from '../../../contract/entities';
import type { TwoFactorChallengeResponse } from '../../../contract/guard';
import { ApiError, type Http } from '../http';
import { authReducer, initialAuthState, type AuthAction, type AuthState } from './authState';
import type { SessionStore } from './sessionStorage';

/**
 * The session's state and the calls that change it. Plain callbacks, no RxJS: this is the part of the services the
 * sign-in screens need, so it ships in the entry chunk; the signed-in layer derives its streams from `subscribe`
 * (src/services/auth/authStreams.ts) and loads with the signed-in layout.
 */
export interface AuthService {
  /** Called with the new state after every change (not with the current one); returns the unsubscribe. */
  subscribe(listener: (state: AuthState) => void): () => void;
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
  register(
    body: RegisterBody,
  ): Promise<{ ok: true; user: PublicUser } | { ok: false; message: string; errors: { msg: string; path?: string }[] }>;
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
  let state = initialAuthState;
  const listeners = new Set<(s: AuthState) => void>();
  const dispatch = (a: AuthAction) => {
    state = authReducer(state, a);
    for (const l of [...listeners]) l(state);
  };
  const subscribe = (listener: (s: AuthState) => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };

  const endSession = () => {
    const userId = state.user?._id ?? null;
    deps.store.clear();
    dispatch({ type: 'logout' });
    deps.onSignedOut?.(userId);
  };

  return {
    subscribe,
    get state() {
      return state;
    },
    restore() {
      const { token, user } = deps.store.read();
      if (!token || !user) deps.store.clear();
      dispatch({ type: 'restored', token, user });
    },
    ready: () =>
      new Promise<AuthState>((resolve) => {
        if (!state.loading) return resolve(state);
        const off = subscribe((s) => {
          if (s.loading) return;
          off();
          resolve(s);
        });
      }),
    async login(email, password) {
      dispatch({ type: 'loginStart' });
      try {
        const res = await deps.http.post<LoginResponse | TwoFactorChallengeResponse>('/auth/login', {
          username: email.trim(),
          password,
        });
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
      if (state.isAuthenticated) endSession();
    },
    updateUser(patch) {
      dispatch({ type: 'userUpdated', patch });
      const user = state.user;
      if (user) deps.store.writeUser(user);
    },
    renewToken(token) {
      deps.store.writeToken(token);
      dispatch({ type: 'tokenRenewed', token });
    },
    async refreshProfile() {
      const res = await deps.http.get<UserResponse>('/auth/profile');
      if (state.isAuthenticated) {
        dispatch({ type: 'userUpdated', patch: res.user });
        deps.store.writeUser(state.user as PublicUser);
      }
    },
  };
}
