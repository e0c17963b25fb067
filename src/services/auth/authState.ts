import type { PublicUser } from '../../../contract/entities';

// The auth state machine of spec section 4 as a pure reducer; the service around it does the I/O.

export interface AuthState {
  loading: boolean;
  isAuthenticated: boolean;
  user: PublicUser | null;
  token: string | null;
  error: string | null;
}

export type AuthAction =
  | { type: 'restored'; token: string | null; user: PublicUser | null }
  | { type: 'loginStart' }
  | { type: 'loginSuccess'; user: PublicUser; token: string }
  | { type: 'loginFailure'; message: string }
  | { type: 'logout' }
  | { type: 'userUpdated'; patch: Partial<PublicUser> }
  | { type: 'tokenRenewed'; token: string };

export const initialAuthState: AuthState = {
  loading: true,
  isAuthenticated: false,
  user: null,
  token: null,
  error: null,
};

const signedOut = (error: string | null = null): AuthState => ({
  loading: false,
  isAuthenticated: false,
  user: null,
  token: null,
  error,
});

export function authReducer(state: AuthState, action: AuthAction): AuthState {
  switch (action.type) {
    case 'restored':
      return action.token && action.user
        ? { loading: false, isAuthenticated: true, user: action.user, token: action.token, error: null }
        : signedOut();
    case 'loginStart':
      return { ...state, loading: true, error: null };
    case 'loginSuccess':
      return { loading: false, isAuthenticated: true, user: action.user, token: action.token, error: null };
    case 'loginFailure':
      return signedOut(action.message);
    case 'logout':
      return signedOut();
    case 'userUpdated':
      return state.user ? { ...state, user: { ...state.user, ...action.patch } } : state;
    case 'tokenRenewed':
      return state.isAuthenticated ? { ...state, token: action.token } : state;
  }
}

/** Sign-in lands on /dashboard when the exchange key pair and the derivatives token are saved, else on /settings. */
export function landingPathFor(user: PublicUser): '/dashboard' | '/settings' {
  return user.hasBinanceApiKey && user.hasBinanceSecretKey && user.hasDerivToken ? '/dashboard' : '/settings';
}
