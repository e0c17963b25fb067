// What only Deriv's new API has, against the fake written from its pages: the API found out new-API first and
// written down, a personal access token's refusals in the trader's words, the choice among several accounts, one
// fresh one-time password per connection, no authorize and no loginid on its sockets, numbers sent as strings, and
// the documented limits kept on our side.
import { firstValueFrom, lastValueFrom, tap } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DerivClient } from '../../../server/venues/deriv/client';
import { NEW_API_SOCKET_LIMITS } from '../../../server/venues/deriv/session';
import { DerivVenue, type ContractUpdate } from '../../../server/venues/deriv/venue';
import { VenueError, type VenueAccount, type VenueFacts } from '../../../server/venues/types';
import { startFakeDeriv, type FakeDeriv } from '../../fakes/deriv/server';
import { accountOf, APP_ID, connector, fakeSetup, trader } from './deriv-traders';

const pat = trader('new', { balance: '10000' });
const legacy = trader('legacy', { balance: '2500', accountId: 'VRTC7001' });
const noTrade = trader('new', { scopes: ['account_manage'] });
const TWO = 'pat_TwoAccounts0Kq3Vb8Hn5Jm2Kq3Vb8Hn5Jm2';
const INACTIVE = 'pat_Inactive000Kq3Vb8Hn5Jm2Kq3Vb8Hn5Jm2';

let fake: FakeDeriv;
const venues: DerivVenue[] = [];
const fresh = () => {
  const v = connector(fake, { requestTimeoutMs: 3000 });
  venues.push(v);
  return v;
};
/** A read the engine would try again after a dropped connection (the first may go out on the dying socket). */
const settled = <T>(read: () => Promise<T>): Promise<T> =>
  read().catch((error: unknown) => {
    if (error instanceof VenueError && error.kind === 'unavailable') return read();
    throw error;
  });
const failure = async (promise: Promise<unknown>): Promise<VenueError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(VenueError);
  return error as VenueError;
};
/** The account with a place to write facts down, as the product's loader gives it. */
const remembering = (account: VenueAccount): { account: VenueAccount; facts: VenueFacts[] } => {
  const facts: VenueFacts[] = [];
  return { account: { ...account, remember: async (f) => void facts.push(f) }, facts };
};

beforeAll(async () => {
  fake = await startFakeDeriv(
    fakeSetup([pat, legacy, noTrade], {
      pats: [
        {
          token: TWO,
          appId: APP_ID,
          accounts: [
            { accountId: 'DOT3001', balance: '10000' },
            { accountId: 'ROT3002', type: 'real', balance: '25.5' },
          ],
        },
        { token: INACTIVE, appId: APP_ID, accounts: [{ accountId: 'DOT4001', status: 'inactive' }] },
      ],
    }),
  );
});

afterEach(async () => {
  await Promise.all(venues.splice(0).map((v) => v.close()));
});

afterAll(async () => {
  await fake.close();
});

describe('which API a saved token belongs to', () => {
  it('asks the new API first and writes down what it found: a PAT with its app id, then a legacy token', async () => {
    const venue = fresh();
    const newOne = remembering(accountOf(pat));
    expect(await venue.testConnection(newOne.account)).toBe(
      `Deriv: new API, demo account ${pat.accountId}, 10,000.00 USD`,
    );
    expect(newOne.facts).toEqual([
      {
        deriv: {
          api: 'new',
          accounts: [{ accountId: pat.accountId, type: 'demo', currency: 'USD', balance: 10000, status: 'active' }],
          chosen: pat.accountId,
        },
      },
    ]);
    const old = remembering(accountOf(legacy, 'u2'));
    const before = fake.restRequests.length;
    expect(await venue.testConnection(old.account)).toBe(
      'Deriv: legacy API, demo account VRTC7001, 2,500.00 USD (scopes read, trade)',
    );
    // the new API was asked first and said no; then the legacy socket authorized the token
    expect(fake.restRequests.slice(before).map((r) => [r.path, r.status])).toEqual([
      ['/trading/v1/options/accounts', 401],
    ]);
    expect(old.facts[0]?.deriv).toMatchObject({ api: 'legacy', accounts: [{ accountId: 'VRTC7001', type: 'demo' }] });
  });

  it('keeps to the API written down, without asking the other', async () => {
    const before = fake.restRequests.length;
    const saved: VenueAccount = { userId: 'u3', credentials: { ...accountOf(legacy).credentials, derivApi: 'legacy' } };
    expect(await fresh().balances(saved)).toMatchObject({ USDT: '2500' });
    expect(fake.restRequests.length).toBe(before);
  });

  it("says in the trader's words why Deriv refused a personal access token", async () => {
    const venue = fresh();
    const authorizes = () => fake.requests.filter((r) => r.call === 'authorize').length;
    let before = authorizes();
    const withoutAppId = await failure(venue.testConnection({ userId: 'a', credentials: { derivToken: pat.token } }));
    expect(withoutAppId).toMatchObject({ kind: 'auth' });
    expect(withoutAppId.message).toMatch(
      /^Deriv refused the token: it is a personal access token, which needs the app ID/,
    );
    // Deriv said it is a personal access token: the legacy socket is not asked
    expect(authorizes()).toBe(before);
    const legacyAppId = await failure(
      venue.testConnection({ userId: 'b', credentials: { derivToken: pat.token, derivAppId: '1089' } }),
    );
    expect(legacyAppId.message).toMatch(/the new API does not take legacy app IDs such as 1089/);
    before = authorizes();
    const otherApp = await failure(
      venue.testConnection({ userId: 'c', credentials: { derivToken: pat.token, derivAppId: 'OtherApp123' } }),
    );
    expect(otherApp.message).toBe('Deriv refused the token or the app ID: the app ID is not registered');
    const scopeless = await failure(venue.testConnection(accountOf(noTrade, 'd')));
    expect(scopeless.message).toBe(
      'Deriv refused the token: it has no trade scope. Make a personal access token with the trade scope.',
    );
    const unknown = await failure(
      venue.testConnection({ userId: 'e', credentials: { derivToken: 'pat_NoSuchToken123456', derivAppId: APP_ID } }),
    );
    expect(unknown.message).toBe('Deriv refused the token or the app ID: the token is invalid or has expired');
    // an app ID of letters is the new API's: no token went to the legacy socket
    expect(authorizes()).toBe(before);
    for (const error of [withoutAppId, legacyAppId, otherApp, scopeless, unknown])
      expect(error.message).not.toContain(pat.token);
  });

  it("finds a legacy token while the new API is down, and calls a PAT's failure what it is: unreachable", async () => {
    const cutOff = new DerivVenue({
      url: fake.url,
      publicUrl: fake.publicUrl,
      apiUrl: 'http://127.0.0.1:9',
      appId: '1089',
      requestTimeoutMs: 3000,
    });
    venues.push(cutOff);
    expect(await cutOff.testConnection(accountOf(legacy, 'down1'))).toMatch(
      /^Deriv: legacy API, demo account VRTC7001/,
    );
    const down = await failure(
      cutOff.testConnection({ userId: 'down2', credentials: { derivToken: pat.token, derivAppId: '1089' } }),
    );
    expect(down).toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/^Cannot reach Deriv's API/) });
  });
});

describe('the account to trade', () => {
  it('lists several accounts and trades none of them until one is chosen; never guesses demo or real', async () => {
    const venue = fresh();
    const listed = remembering({ userId: 'two', credentials: { derivToken: TWO, derivAppId: APP_ID } });
    expect(await venue.testConnection(listed.account)).toBe(
      'Deriv: new API, 2 accounts: choose the one to trade below',
    );
    expect(listed.facts[0]?.deriv.accounts.map((a) => [a.accountId, a.type, a.balance])).toEqual([
      ['DOT3001', 'demo', 10000],
      ['ROT3002', 'real', 25.5],
    ]);
    expect(listed.facts[0]?.deriv.chosen).toBeUndefined();
    const refused = await failure(venue.balances(listed.account));
    expect(refused.message).toBe(
      'This token reaches 2 Deriv accounts (demo DOT3001, real ROT3002): choose the one to trade in Settings',
    );
    const chosen: VenueAccount = {
      userId: 'two',
      credentials: { derivToken: TWO, derivAppId: APP_ID, derivApi: 'new', derivAccountId: 'ROT3002' },
    };
    expect(await venue.balances(chosen)).toMatchObject({ USDT: '25.5' });
    await venue.openLeg(chosen, { clientOrderId: 'real-d', symbol: 'ETH/USDT', side: 'buy', notional: '100' });
    expect(fake.contracts().at(-1)?.loginid).toBe('ROT3002');
  });

  it('refuses an account that is inactive or no longer listed', async () => {
    const venue = fresh();
    const inactive = await failure(
      venue.balances({ userId: 'i', credentials: { derivToken: INACTIVE, derivAppId: APP_ID } }),
    );
    expect(inactive.message).toBe("Deriv lists this token's only account, DOT4001, as inactive");
    const gone = await failure(
      venue.balances({ userId: 'g', credentials: { ...accountOf(pat).credentials, derivAccountId: 'DOT999' } }),
    );
    expect(gone.message).toMatch(/^Deriv no longer lists the account DOT999 for this token/);
  });
});

describe('the new API on the wire', () => {
  it('trades on an OTP socket: no authorize, no loginid, underlying_symbol, every call on the new API', async () => {
    const venue = fresh();
    const from = fake.requests.length;
    const fill = await venue.openLeg(accountOf(pat), {
      clientOrderId: 'w1-d',
      symbol: 'BTC/USDT',
      side: 'sell',
      notional: '1000',
    });
    await venue.closeLeg(accountOf(pat), {
      clientOrderId: 'w1-d-c',
      symbol: 'BTC/USDT',
      side: 'sell',
      quantity: fill.quantity,
      venueOrderId: fill.venueOrderId,
    });
    const seen = fake.requests.slice(from);
    expect(new Set(seen.map((r) => r.dialect))).toEqual(new Set(['new']));
    expect(seen.map((r) => r.call)).not.toContain('authorize');
    expect(seen.some((r) => JSON.stringify(r.request).includes('loginid'))).toBe(false);
    const proposal = seen.find((r) => r.call === 'proposal')?.request;
    expect(proposal).toMatchObject({ underlying_symbol: 'cryBTCUSD', contract_type: 'MULTDOWN', currency: 'USD' });
    expect(proposal).not.toHaveProperty('symbol');
    expect(fake.restRequests.filter((r) => r.path.endsWith('/otp')).every((r) => r.appId === APP_ID)).toBe(true);
  });

  it('asks for a fresh one-time password for every connection and reconnection, expired or used ones included', async () => {
    const venue = fresh();
    const account = accountOf(pat, 'otp');
    await venue.balances(account);
    const issued = fake.otpsIssued();
    fake.expireOtps();
    fake.dropConnections();
    // the next call reconnects: the used, now expired, password is not tried again; a new one is asked for
    expect(await settled(() => venue.balances(account))).toMatchObject({ USDT: expect.any(String) });
    expect(fake.otpsIssued()).toBe(issued + 1);
    expect(fake.refusedConnections).toEqual([]);
  });

  it('reads the numbers proposal_open_contract sends as strings', async () => {
    const venue = fresh();
    fake.pushTick('cryETHUSD', '3000.000', '3001.000');
    const open = await venue.openLeg(accountOf(pat), {
      clientOrderId: 's1-d',
      symbol: 'ETH/USDT',
      side: 'buy',
      notional: '300',
    });
    expect(open).toMatchObject({ price: '3001', fee: '0.09' });
    const updates: ContractUpdate[] = [];
    let moved: () => void = () => undefined;
    const seen = new Promise<void>((resolve) => (moved = resolve));
    const done = lastValueFrom(
      venue.watchContract(accountOf(pat), open.venueOrderId).pipe(
        tap((u) => {
          updates.push(u);
          if (u.currentSpot === '3030') moved();
        }),
      ),
    );
    await fake.waitForSubscription(`poc:${open.venueOrderId}`);
    fake.pushTick('cryETHUSD', '3030.000', '3031.000');
    await seen;
    fake.stopOut(Number(open.venueOrderId));
    expect(await done).toMatchObject({ isSold: true, status: 'lost', bidPrice: '0' });
    const up = updates.find((u) => u.currentSpot === '3030');
    expect(Number(up?.profit)).toBeGreaterThan(0);
    expect(Number(up?.bidPrice)).toBeGreaterThan(30);
  });

  it('follows a stop-out to its exit spot', async () => {
    const venue = fresh();
    fake.pushTick('cryETHUSD', '3000.000', '3001.000');
    const open = await venue.openLeg(accountOf(pat), {
      clientOrderId: 'so2-d',
      symbol: 'ETH/USDT',
      side: 'sell',
      notional: '300',
    });
    const closed = firstValueFrom(venue.watchPosition(accountOf(pat), 'ETH/USDT', open.venueOrderId, open.quantity));
    await fake.waitForSubscription(`poc:${open.venueOrderId}`);
    fake.pushTick('cryETHUSD', '3290.000', '3300.000');
    fake.stopOut(Number(open.venueOrderId));
    expect(await closed).toMatchObject({ reason: 'Deriv stopped the contract out', fill: { price: '3300' } });
  });

  it('gives up on a token Deriv revoked instead of asking for passwords forever', async () => {
    const revoked = trader('new');
    fake.addPat(revoked.pat!);
    const venue = fresh();
    await venue.balances(accountOf(revoked, 'rv'));
    fake.revokePat(revoked.token);
    fake.dropConnections();
    const error = await failure(settled(() => venue.balances(accountOf(revoked, 'rv'))));
    expect(error).toMatchObject({ kind: 'auth', message: expect.stringMatching(/invalid or has expired/) });
  });
});

describe("Deriv's documented limits, kept on our side", () => {
  it('sends at most 100 requests a second on one connection: 250 at once all answered, none refused', async () => {
    const client = new DerivClient({ url: fake.publicUrl, ...NEW_API_SOCKET_LIMITS });
    const answers = await Promise.all(Array.from({ length: 250 }, () => client.request({ time: 1 })));
    expect(answers.every((a) => typeof a['time'] === 'number')).toBe(true);
    await client.close();
  });

  it('refuses a stream beyond the 100 a connection may hold before asking Deriv', async () => {
    const client = new DerivClient({ url: fake.publicUrl, maxSubscriptions: 1 });
    const first = new Promise((resolve) => client.subscribe({ ticks: 'cryBTCUSD' }, resolve));
    await first;
    const refused = await new Promise<Error>((resolve) =>
      client.subscribe({ ticks: 'cryETHUSD' }, () => undefined, resolve),
    );
    expect(refused.message).toBe('Deriv allows at most 1 streams on one connection');
    expect(fake.requests.filter((r) => r.request['ticks'] === 'cryETHUSD' && r.dialect === 'new')).toHaveLength(0);
    await client.close();
  });

  it('says so when Deriv refuses a sixth connection of one user', async () => {
    const crowd = trader('new');
    fake.addPat(crowd.pat!);
    const open = Array.from({ length: 5 }, () => fresh());
    await Promise.all(open.map((v, i) => v.balances(accountOf(crowd, `c${i}`))));
    const sixth = await failure(fresh().balances(accountOf(crowd, 'c6')));
    expect(sixth).toMatchObject({ kind: 'rate-limit', message: expect.stringMatching(/allows 5 at once per user/) });
  });
});
