// Traders on either of Deriv's APIs for the connector tests: what the fake Deriv knows of them (a legacy API token
// with its account, or a personal access token with its app id and Options account) and the credentials the product
// saved for them. The same tests then run on both APIs.
import type { DerivApi } from '../../../contract/deriv';
import { DerivVenue } from '../../../server/venues/deriv/venue';
import type { VenueAccount } from '../../../server/venues/types';
import type { FakeDeriv, FakeDerivAccount, FakeDerivOptions, FakeDerivPat } from '../../fakes/deriv/server';

export const APIS: DerivApi[] = ['legacy', 'new'];
/** A new-API app id as Deriv issues them: letters and digits (21 seen in public code). */
export const APP_ID = 'Qx7Lm2Np9Rs4Tv6Wy8Za1';

export interface Trader {
  api: DerivApi;
  token: string;
  appId: string;
  /** The account the token trades: a legacy loginid, or the PAT's Options account. */
  accountId: string;
  legacy?: FakeDerivAccount;
  pat?: FakeDerivPat;
}

let next = 1;

export function trader(
  api: DerivApi,
  options: { balance?: string; currency?: string; scopes?: string[]; accountId?: string } = {},
): Trader {
  const n = next++;
  if (api === 'legacy') {
    const accountId = options.accountId ?? `CR${1000 + n}`;
    const token = `a1-Trader${n}Token`;
    return {
      api,
      token,
      appId: '1089',
      accountId,
      legacy: {
        token,
        loginid: accountId,
        balance: options.balance,
        currency: options.currency,
        scopes: options.scopes,
      },
    };
  }
  const accountId = options.accountId ?? `DOT${90_000 + n}`;
  const token = `pat_${n}x${'Kq3Vb8Hn5Jm2'.repeat(3)}`;
  return {
    api,
    token,
    appId: APP_ID,
    accountId,
    pat: {
      token,
      appId: APP_ID,
      scopes: options.scopes,
      accounts: [{ accountId, balance: options.balance, currency: options.currency }],
    },
  };
}

/** The fake's setup for these traders. */
export function fakeSetup(traders: Trader[], extra: FakeDerivOptions = {}): FakeDerivOptions {
  return {
    ...extra,
    accounts: [...(extra.accounts ?? []), ...traders.flatMap((t) => (t.legacy ? [t.legacy] : []))],
    pats: [...(extra.pats ?? []), ...traders.flatMap((t) => (t.pat ? [t.pat] : []))],
  };
}

/** The trader's saved credentials, the API not yet known (found out on first use, new API first). */
export function accountOf(t: Trader, userId = 'u1'): VenueAccount {
  return { userId, credentials: { derivToken: t.token, derivAppId: t.appId } };
}

export function connector(fake: FakeDeriv, options: { requestTimeoutMs?: number } = {}): DerivVenue {
  return new DerivVenue({
    url: fake.url,
    publicUrl: fake.publicUrl,
    apiUrl: fake.apiUrl,
    appId: '1089',
    backoff: { initialMs: 20, maxMs: 200 },
    requestTimeoutMs: options.requestTimeoutMs ?? 5000,
  });
}
