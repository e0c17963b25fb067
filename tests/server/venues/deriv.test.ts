import Decimal from 'decimal.js';
import { filter, firstValueFrom, lastValueFrom, tap } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DerivApiError, DerivClient } from '../../../server/venues/deriv/client';
import { DerivVenue, type ContractUpdate } from '../../../server/venues/deriv/venue';
import { VenueError, type VenueAccount } from '../../../server/venues/types';
import { startFakeDeriv, type FakeDeriv } from '../../fakes/deriv/server';
import { accountOf, APIS, connector, fakeSetup, trader, type Trader } from './deriv-traders';

const NOSY = 'a1-PaymentsToken';
const READER = 'a1-ReadOnlyToken';

let fake: FakeDeriv;

beforeAll(async () => {
  fake = await startFakeDeriv({
    accounts: [
      { token: NOSY, loginid: 'CR1002', scopes: ['read', 'trade', 'payments'] },
      { token: READER, loginid: 'CR1003', scopes: ['read'] },
    ],
  });
});

afterAll(async () => {
  await fake.close();
});

const venueError = async (promise: Promise<unknown>): Promise<VenueError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(VenueError);
  return error as VenueError;
};

describe('Deriv client', () => {
  it('answers requests by req_id and reports errors by code', async () => {
    const client = new DerivClient({ url: fake.url, appId: '1089' });
    const [pong, time] = await Promise.all([client.request({ ping: 1 }), client.request({ time: 1 })]);
    expect(pong).toMatchObject({ msg_type: 'ping', ping: 'pong' });
    expect(time['msg_type']).toBe('time');
    const error = await client.request({ balance: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DerivApiError);
    expect(error).toMatchObject({ code: 'AuthorizationRequired', call: 'balance' });
    await client.close();
  });

  it('keeps the connection alive with pings and forgets a subscription it no longer needs', async () => {
    const client = new DerivClient({ url: fake.url, appId: '1089', pingIntervalMs: 10 });
    const pinged = fake.waitForCall('ping');
    const ticks: unknown[] = [];
    let subscription: { unsubscribe(): void } | null = null;
    await new Promise<void>((resolve) => {
      subscription = client.subscribe({ ticks: 'cryBTCUSD' }, (m) => {
        ticks.push(m);
        resolve();
      });
    });
    await pinged;
    const forgotten = fake.waitForCall('forget');
    subscription!.unsubscribe();
    await forgotten;
    expect(ticks.length).toBeGreaterThan(0);
    await client.close();
  });

  it('forgets a subscription cancelled before its first answer arrived', async () => {
    const client = new DerivClient({ url: fake.url, appId: '1089' });
    await client.request({ ping: 1 });
    const received: unknown[] = [];
    const subscription = client.subscribe({ ticks: 'cryETHUSD' }, (m) => received.push(m));
    // The venue has registered it; its answer is still on the wire, so the client does not know the id yet.
    await fake.waitForSubscription('ticks:cryETHUSD');
    const forgotten = fake.waitForCall('forget');
    subscription.unsubscribe();
    await forgotten;
    expect(received).toEqual([]);
    await client.close();
  });

  it('refuses an app id the venue does not know', async () => {
    const strict = await startFakeDeriv({ appIds: ['36544'] });
    const client = new DerivClient({ url: strict.url, appId: '1' });
    await expect(client.request({ ping: 1 })).rejects.toMatchObject({ code: 'InvalidAppID' });
    await client.close();
    await strict.close();
  });
});

describe.each(APIS)('Deriv connector on the %s API against the fake venue', (api) => {
  let fake: FakeDeriv;
  let venue: DerivVenue;
  let t: Trader;
  const account = (): VenueAccount => accountOf(t);

  beforeAll(async () => {
    t = trader(api, { balance: '1000' });
    fake = await startFakeDeriv(fakeSetup([t]));
    venue = connector(fake);
  });

  afterAll(async () => {
    await venue.close();
    await fake.close();
  });

  it('finds out the API, reports the account and its balance', async () => {
    expect(await venue.testConnection(account())).toBe(
      api === 'legacy'
        ? `Deriv: legacy API, real account ${t.accountId}, 1,000.00 USD (scopes read, trade)`
        : `Deriv: new API, demo account ${t.accountId}, 1,000.00 USD`,
    );
    expect(await venue.balances(account())).toEqual({ USDT: '1000', BTC: '0', ETH: '0' });
    expect(await venue.takerFeeRate(account())).toBe('0');
    const missing = await venueError(venue.balances({ userId: 'u5', credentials: {} }));
    expect(missing.kind).toBe('auth');
  });

  it('streams ticks as quotes', async () => {
    const next = firstValueFrom(venue.quotes('BTC/USDT').pipe(filter((q) => q.bid === 81000)));
    await fake.waitForSubscription('ticks:cryBTCUSD');
    fake.pushTick('cryBTCUSD', '81000.000', '81012.500');
    expect(await next).toMatchObject({ venue: 'deriv', symbol: 'BTC/USDT', bid: 81000, ask: 81012.5 });
  });

  it('reconnects and resubscribes after the connection drops', async () => {
    const quotes = venue.quotes('ETH/USDT');
    const before = firstValueFrom(quotes.pipe(filter((q) => q.bid === 3100)));
    const after = firstValueFrom(quotes.pipe(filter((q) => q.bid === 3200)));
    await fake.waitForSubscription('ticks:cryETHUSD');
    fake.pushTick('cryETHUSD', '3100.000', '3101.000');
    await before;
    expect(fake.dropConnections()).toBeGreaterThan(0);
    await fake.waitForSubscription('ticks:cryETHUSD');
    fake.pushTick('cryETHUSD', '3200.000', '3201.000');
    expect((await after).ask).toBe(3201);
  });

  it('opens a MULTDOWN leg with stake = notional / multiplier, commission as fee, idempotent on client id', async () => {
    fake.pushTick('cryBTCUSD', '80000.000', '80010.000');
    const order = { clientOrderId: 'trade1-d', symbol: 'BTC/USDT', side: 'sell', notional: '1000' } as const;
    const fill = await venue.openLeg(account(), order);
    expect(fill.price).toBe('80000');
    expect(fill.quantity).toBe('0.0125');
    expect(fill.fee).toBe('0.3');
    expect(fake.balance(t.accountId)).toBe('900.00');
    expect(await venue.openLeg(account(), order)).toEqual(fill);
    expect(fake.contracts()).toHaveLength(1);
    expect(fake.contracts()[0]).toMatchObject({ contractType: 'MULTDOWN', multiplier: 10 });
    expect(await venue.findOrder(account(), 'BTC/USDT', 'trade1-d')).toEqual(fill);
    expect(await venue.findOrder(account(), 'BTC/USDT', 'unknown')).toBeNull();
  });

  it('closes the leg by selling the contract, realising the move net of commission', async () => {
    const open = await venue.findOrder(account(), 'BTC/USDT', 'trade1-d');
    fake.pushTick('cryBTCUSD', '79000.000', '79200.000');
    const close = await venue.closeLeg(account(), {
      clientOrderId: 'trade1-d-c',
      symbol: 'BTC/USDT',
      side: 'sell',
      quantity: open!.quantity,
      venueOrderId: open!.venueOrderId,
    });
    // A short leaves at the ask: 100 stake + 1000 × (1 − 79200/80000) − 0.30 commission.
    expect(close.price).toBe('79200');
    expect(close.fee).toBe('0');
    const expected = new Decimal(100)
      .plus(new Decimal(1000).times(new Decimal(1).minus(new Decimal(79200).dividedBy(80000))))
      .minus(0.3);
    expect(fake.balance(t.accountId)).toBe(
      new Decimal(900).plus(expected.toDecimalPlaces(2, Decimal.ROUND_DOWN)).toFixed(2),
    );
    const retry = await venue.closeLeg(account(), {
      clientOrderId: 'trade1-d-c',
      symbol: 'BTC/USDT',
      side: 'sell',
      quantity: open!.quantity,
      venueOrderId: open!.venueOrderId,
    });
    expect(retry).toEqual(close);
    expect(await venue.findOrder(account(), 'BTC/USDT', 'trade1-d-c')).toEqual(close);
  });

  it('streams an open contract until it is sold', async () => {
    fake.pushTick('cryETHUSD', '3000.000', '3001.000');
    const open = await venue.openLeg(account(), {
      clientOrderId: 'trade4-d',
      symbol: 'ETH/USDT',
      side: 'buy',
      notional: '200',
    });
    const updates: ContractUpdate[] = [];
    const finished = lastValueFrom(venue.watchContract(account(), open.venueOrderId).pipe(tap((u) => updates.push(u))));
    await fake.waitForSubscription(`poc:${open.venueOrderId}`);
    fake.pushTick('cryETHUSD', '3030.000', '3031.000');
    await venue.closeLeg(account(), {
      clientOrderId: 'trade4-d-c',
      symbol: 'ETH/USDT',
      side: 'buy',
      quantity: open.quantity,
      venueOrderId: open.venueOrderId,
    });
    const last = await finished;
    expect(last).toMatchObject({ contractId: open.venueOrderId, isSold: true, status: 'sold' });
    expect(updates.some((u) => !u.isSold && u.currentSpot === '3030')).toBe(true);
  });

  it('buys one contract for concurrent calls with the same client order id', async () => {
    const before = fake.contracts().length;
    const order = { clientOrderId: 'concurrent-d', symbol: 'ETH/USDT', side: 'sell', notional: '100' } as const;
    const [a, b] = await Promise.all([venue.openLeg(account(), order), venue.openLeg(account(), order)]);
    expect(b).toEqual(a);
    expect(fake.contracts()).toHaveLength(before + 1);
  });

  it('still reports a bought contract when reading it back fails, from the proposal', async () => {
    fake.pushTick('cryBTCUSD', '70000.000', '70010.000');
    fake.failNext('proposal_open_contract', 'InternalServerError');
    const fill = await venue.openLeg(account(), {
      clientOrderId: 'readback-d',
      symbol: 'BTC/USDT',
      side: 'buy',
      notional: '100',
    });
    expect(fill).toMatchObject({
      price: '70010',
      quantity: new Decimal(100).dividedBy(70010).toDecimalPlaces(8, Decimal.ROUND_DOWN).toFixed(),
      fee: '0.03',
    });
    expect(fill.venueOrderId).toBe(String(fake.contracts().at(-1)!.contractId));
  });

  it('reports an unreachable venue as unavailable', async () => {
    const nowhere = new DerivVenue({
      url: 'ws://127.0.0.1:9/websockets/v3',
      publicUrl: 'ws://127.0.0.1:9/trading/v1/options/ws/public',
      apiUrl: 'http://127.0.0.1:9',
      appId: '1089',
    });
    const error = await venueError(nowhere.balances(accountOf(t, 'u9')));
    expect(error.kind).toBe('unavailable');
    await nowhere.close();
  });

  it('maps insufficient balance', async () => {
    const error = await venueError(
      venue.openLeg(account(), { clientOrderId: 'huge-d', symbol: 'ETH/USDT', side: 'buy', notional: '19000' }),
    );
    expect(error.kind).toBe('insufficient-balance');
    expect(error.message).toMatch(/insufficient/);
  });

  it('maps a rate limit and a rejected proposal', async () => {
    fake.failNext('balance', 'RateLimit');
    expect((await venueError(venue.balances(account()))).kind).toBe('rate-limit');
    const tooSmall = await venueError(
      venue.openLeg(account(), { clientOrderId: 'tiny-d', symbol: 'ETH/USDT', side: 'buy', notional: '5' }),
    );
    expect(tooSmall.kind).toBe('rejected');
  });

  it('finds the contract in the portfolio when the buy was executed but its answer was lost', async () => {
    fake.pushTick('cryETHUSD', '3200.000', '3201.000');
    const contractsBefore = fake.contracts().length;
    fake.failNext('buy', 'InternalServerError', { execute: true, dropConnection: true });
    const fill = await venue.openLeg(account(), {
      clientOrderId: 'trade2-d',
      symbol: 'ETH/USDT',
      side: 'buy',
      notional: '500',
    });
    expect(fill.price).toBe('3201');
    expect(fake.contracts()).toHaveLength(contractsBefore + 1);
    expect(fill.venueOrderId).toBe(String(fake.contracts().at(-1)!.contractId));
    expect(fake.calls).toContain('portfolio');
  });

  it('reports not executed when the buy failed with an internal error and bought nothing', async () => {
    const contractsBefore = fake.contracts().length;
    fake.failNext('buy', 'InternalServerError');
    const error = await venueError(
      venue.openLeg(account(), { clientOrderId: 'trade3-d', symbol: 'ETH/USDT', side: 'buy', notional: '500' }),
    );
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/no contract was bought/);
    expect(fake.contracts()).toHaveLength(contractsBefore);
  });
});

describe('Deriv connector: legacy tokens that can move money, or cannot trade', () => {
  it('refuses a token with the payments scope, one without trade, and an invalid one', async () => {
    const venue = connector(fake);
    const legacy = (token: string, userId: string): VenueAccount => ({
      userId,
      credentials: { derivToken: token, derivAppId: '1089' },
    });
    const payments = await venueError(venue.testConnection(legacy(NOSY, 'u2')));
    expect(payments.kind).toBe('auth');
    expect(payments.message).toMatch(/payments scope/);
    const readOnly = await venueError(venue.balances(legacy(READER, 'u3')));
    expect(readOnly.kind).toBe('auth');
    const invalid = await venueError(venue.balances(legacy('nonsense-token', 'u4')));
    expect(invalid).toMatchObject({ kind: 'auth' });
    expect(invalid.message).toMatch(/^Deriv refused the token: it is invalid or has expired \(InvalidToken\)/);
    await venue.close();
  });
});
