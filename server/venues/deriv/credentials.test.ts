import { describe, expect, it } from 'vitest';
import { derivCredentialsComplete, derivCredentialsGap, type SavedDerivCredentials } from './credentials';

const saved = (patch: Partial<SavedDerivCredentials>): SavedDerivCredentials => ({
  derivTokenEnc: 'ciphertext',
  derivAppId: '',
  derivApi: null,
  derivAccountId: '',
  ...patch,
});

describe('derivCredentialsComplete', () => {
  it('needs a token; a legacy token needs nothing more', () => {
    expect(derivCredentialsComplete(null)).toBe(false);
    expect(derivCredentialsComplete(saved({ derivTokenEnc: null }))).toBe(false);
    expect(derivCredentialsComplete(saved({ derivApi: 'legacy' }))).toBe(true);
    expect(derivCredentialsComplete(saved({ derivApi: 'legacy', derivAppId: '1089' }))).toBe(true);
  });

  it('a personal access token needs its (new) app ID and an account to trade', () => {
    expect(derivCredentialsGap(saved({ derivApi: 'new' }))).toBe(
      'Enter the app ID of the app your Deriv personal access token was made for',
    );
    expect(derivCredentialsComplete(saved({ derivApi: 'new', derivAppId: '1089', derivAccountId: 'DOT1' }))).toBe(
      false,
    );
    expect(derivCredentialsGap(saved({ derivApi: 'new', derivAppId: 'Qx7Lm2Np9Rs4Tv6Wy8Za1' }))).toBe(
      'Choose which Deriv account to trade (Settings → API Keys)',
    );
    expect(
      derivCredentialsComplete(saved({ derivApi: 'new', derivAppId: 'Qx7Lm2Np9Rs4Tv6Wy8Za1', derivAccountId: 'DOT1' })),
    ).toBe(true);
  });

  it('a token not looked at yet is found out when trading starts', () => {
    expect(derivCredentialsComplete(saved({}))).toBe(true);
    expect(derivCredentialsComplete(saved({ derivAppId: 'Qx7Lm2Np9Rs4Tv6Wy8Za1' }))).toBe(true);
  });
});
