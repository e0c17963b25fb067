import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../contract/entities';
import { authReducer, initialAuthState, landingPathFor, type AuthState } from './authState';

const user = {
  _id: 'u1',
  username: 'ann',
  hasBinanceApiKey: true,
  hasBinanceSecretKey: true,
  hasDerivToken: true,
} as PublicUser;
const signedIn: AuthState = { loading: false, isAuthenticated: true, user, token: 't', error: null };

describe('auth state machine (spec section 4)', () => {
  it.each([
    ['starts loading', initialAuthState, null, { loading: true, isAuthenticated: false }],
    [
      'restore with token and user → authenticated',
      initialAuthState,
      { type: 'restored', token: 't', user },
      { loading: false, isAuthenticated: true, token: 't' },
    ],
    [
      'restore without token → signed out',
      initialAuthState,
      { type: 'restored', token: null, user },
      { loading: false, isAuthenticated: false, user: null },
    ],
    [
      'restore without user → signed out',
      initialAuthState,
      { type: 'restored', token: 't', user: null },
      { loading: false, isAuthenticated: false, token: null },
    ],
    [
      'login start sets loading and clears the error',
      { ...initialAuthState, loading: false, error: 'x' },
      { type: 'loginStart' },
      { loading: true, error: null },
    ],
    [
      'login success',
      initialAuthState,
      { type: 'loginSuccess', user, token: 't2' },
      { isAuthenticated: true, token: 't2', loading: false },
    ],
    [
      'login failure clears the session and keeps the message',
      signedIn,
      { type: 'loginFailure', message: 'Invalid credentials' },
      { isAuthenticated: false, user: null, token: null, error: 'Invalid credentials' },
    ],
    ['logout clears the session', signedIn, { type: 'logout' }, { isAuthenticated: false, user: null, token: null }],
    [
      'profile update merges into the user',
      signedIn,
      { type: 'userUpdated', patch: { username: 'anna' } },
      { user: { ...user, username: 'anna' } },
    ],
    ['a renewed token replaces the old', signedIn, { type: 'tokenRenewed', token: 't3' }, { token: 't3' }],
  ] as const)('%s', (_n, state, action, expected) => {
    const next = action ? authReducer(state as AuthState, action as never) : state;
    expect(next).toMatchObject(expected);
  });

  it('lands on /dashboard only when both Binance keys and the Deriv token are saved', () => {
    expect(landingPathFor(user)).toBe('/dashboard');
    expect(landingPathFor({ ...user, hasDerivToken: false })).toBe('/settings');
    expect(landingPathFor({ ...user, hasBinanceSecretKey: false })).toBe('/settings');
  });
});
