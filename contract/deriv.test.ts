import { describe, expect, it } from 'vitest';
import {
  derivAccountIdProblem,
  derivAppIdProblem,
  derivStatusLine,
  derivTokenProblem,
  NO_DERIV_LINK,
  type DerivLink,
} from './deriv';

const demo = { accountId: 'DOT90001', type: 'demo', currency: 'USD', balance: 10000, status: 'active' } as const;
const real = { accountId: 'ROT90002', type: 'real', currency: 'USD', balance: 25.5, status: 'active' } as const;
const link = (patch: Partial<DerivLink>): DerivLink => ({ ...NO_DERIV_LINK, ...patch });

describe('the Deriv form rules', () => {
  it('takes alphanumeric app IDs up to 64 characters and legacy numbers', () => {
    expect(derivAppIdProblem('')).toBeNull();
    expect(derivAppIdProblem('1089')).toBeNull();
    expect(derivAppIdProblem('Qx7Lm2Np9Rs4Tv6Wy8Za1')).toBeNull();
    expect(derivAppIdProblem('a'.repeat(64))).toBeNull();
    expect(derivAppIdProblem('a'.repeat(65))).toBe('The Deriv app ID has at most 64 characters');
    expect(derivAppIdProblem('my-app')).toBe('The Deriv app ID has only letters and digits');
  });

  it('says what is wrong with a token', () => {
    expect(derivTokenProblem('')).toBeNull();
    expect(derivTokenProblem('a1-LiveTraderToken')).toBeNull();
    expect(derivTokenProblem('pat_Kq3Vb8Hn5Jm2.x~y+z/w==')).toBeNull();
    expect(derivTokenProblem('abc def')).toBe('The Deriv token has spaces in it: paste it again without them');
    expect(derivTokenProblem('tok€n12345')).toBe('The Deriv token has characters a token never has: paste it again');
    expect(derivTokenProblem('short')).toBe("The Deriv token is too short: Deriv's tokens are longer than this");
    expect(derivTokenProblem('x'.repeat(513))).toBe('The Deriv token is too long (at most 512 characters)');
    expect(derivAccountIdProblem('DOT90001')).toBeNull();
    expect(derivAccountIdProblem('DOT 1')).toMatch(/^A Deriv account ID is/);
  });
});

describe('derivStatusLine', () => {
  it('names the API, the account, its type, balance and currency', () => {
    expect(derivStatusLine(link({ api: 'new', accountId: 'DOT90001', accounts: [demo, real] }))).toBe(
      'Deriv: new API, demo account DOT90001, 10,000.00 USD',
    );
    expect(
      derivStatusLine(link({ api: 'legacy', accounts: [{ ...demo, accountId: 'VRTC1234', balance: 2500 }] })),
    ).toBe('Deriv: legacy API, demo account VRTC1234, 2,500.00 USD');
  });

  it('says what is still to do', () => {
    expect(derivStatusLine(NO_DERIV_LINK)).toBe('Deriv: not checked yet. Save the token, then press Test Connection.');
    expect(derivStatusLine(link({ api: 'new', accounts: [demo, real] }))).toBe(
      'Deriv: new API, 2 accounts: choose the one to trade below',
    );
    expect(derivStatusLine(link({ api: 'new', accountId: 'DOT1', accounts: [demo] }))).toBe(
      'Deriv: new API, account DOT1 is no longer listed: choose one below',
    );
    expect(derivStatusLine(link({ api: 'new', accounts: [] }))).toBe(
      'Deriv: new API, but Deriv lists no Options account for this token',
    );
  });
});
