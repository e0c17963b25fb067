// The Deriv connector against the fake Deriv for issue 9: the multiplier, stake bounds and commission Deriv states,
// the account currency, price protection on the proposal's spot, a contract bought before a crash found again by a
// new connector (its id, or the attempt written down before the buy), open contracts followed, and stop-outs.
import { firstValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tickTime, type DerivVenue } from '../../../server/venues/deriv/venue';
import type { OrderNote, OrderPlacement, VenueAccount } from '../../../server/venues/types';
import { startFakeDeriv, type FakeDeriv } from '../../fakes/deriv/server';
import { accountOf, APIS, connector, fakeSetup, trader, type Trader } from './deriv-traders';

describe.each(APIS)('on the %s API', (api) => {
  let fake: FakeDeriv;
  let t: Trader;
  let euro: Trader;
  const venues: DerivVenue[] = [];
  const account = (who?: Trader, userId = 's1'): VenueAccount => accountOf(who ?? t, userId);
  const fresh = () => {
    const v = connector(fake, { requestTimeoutMs: 2000 });
    venues.push(v);
    return v;
  };

  beforeAll(async () => {
    t = trader(api, { balance: '5000' });
    euro = trader(api, { balance: '5000', currency: 'EUR' });
    // BTC offers only ×50 and ×100, as a venue may: a connector fixed at ×10 had every proposal refused.
    fake = await startFakeDeriv(fakeSetup([t, euro], { multipliers: { cryBTCUSD: [50, 100] } }));
  });

  // A connector per test stands for a process: the one before it has gone, and its connections with it (the new
  // API allows 5 at once per user).
  afterEach(async () => {
    await Promise.all(venues.splice(0).map((v) => v.close()));
  });

  afterAll(async () => {
    await fake.close();
  });

  describe('Deriv connector: what the venue offers (issue 9, finding 5)', () => {
    it('buys at the lowest multiplier the symbol offers (×50 here), never at a fixed ×10', async () => {
      const fill = await fresh().openLeg(account(), {
        clientOrderId: 'x-d',
        symbol: 'BTC/USDT',
        side: 'sell',
        notional: '1000',
      });
      const contract = fake.contracts().find((c) => String(c.contractId) === fill.venueOrderId);
      expect(contract?.multiplier).toBe(50);
      expect(contract?.stake.toFixed(2)).toBe('20.00');
    });

    it('states the lowest multiplier offered, the stake bounds and the commission as the symbol rules', async () => {
      const rules = await fresh().tradeRules(account(), 'BTC/USDT');
      expect(rules).toMatchObject({
        currency: 'USD',
        multiplier: 50,
        minStake: '1',
        maxStake: '2000',
        feeRate: '0.0003',
      });
      expect((await fresh().tradeRules(account(), 'ETH/USDT')).multiplier).toBe(10);
      expect(fake.calls).toContain('contracts_for');
    });

    it('follows a change of the offer after Deriv refused a multiplier', async () => {
      const venue = fresh();
      await venue.tradeRules(account(), 'ETH/USDT');
      fake.setMultipliers('cryETHUSD', [20, 40]);
      const refused = await venue
        .openLeg(account(), { clientOrderId: 'eth1-d', symbol: 'ETH/USDT', side: 'buy', notional: '400' })
        .catch((e: unknown) => e);
      expect(refused).toMatchObject({
        kind: 'rejected',
        message: expect.stringMatching(/Multiplier is not in acceptable range\. Accepts 20,40/),
      });
      const fill = await venue.openLeg(account(), {
        clientOrderId: 'eth2-d',
        symbol: 'ETH/USDT',
        side: 'buy',
        notional: '400',
      });
      expect(fake.contracts().find((c) => String(c.contractId) === fill.venueOrderId)).toMatchObject({
        multiplier: 20,
      });
      fake.setMultipliers('cryETHUSD', [10, 20, 30, 40, 50, 100]);
    });

    it('proposes in the account currency read from Deriv (legacy: authorize; new API: the account list)', async () => {
      await fresh().openLeg(account(euro, 's2'), {
        clientOrderId: 'eur1-d',
        symbol: 'ETH/USDT',
        side: 'sell',
        notional: '100',
      });
      expect(fake.contracts().at(-1)?.loginid).toBe(euro.accountId);
      expect(fake.requests.filter((r) => r.call === 'proposal').at(-1)?.request['currency']).toBe('EUR');
    });

    it('refuses before buying when the proposal spot moved beyond the decision price (issue 9, finding 7)', async () => {
      fake.pushTick('cryETHUSD', '3000.000', '3001.000');
      const before = fake.contracts().length;
      const moved = await fresh()
        .openLeg(account(), {
          clientOrderId: 'moved-d',
          symbol: 'ETH/USDT',
          side: 'buy',
          notional: '300',
          protection: { price: '2980', maxSlippage: 0.001 },
        })
        .catch((e: unknown) => e);
      expect(moved).toMatchObject({ kind: 'rejected', message: expect.stringMatching(/Deriv's price moved/) });
      expect(fake.contracts()).toHaveLength(before);
    });

    it("holds a tick's time inside the second its epoch names", () => {
      expect(tickTime(1_000, 1_000_400)).toBe(1_000_400);
      expect(tickTime(1_000, 1_003_000)).toBe(1_000_999);
      expect(tickTime(1_000, 999_000)).toBe(1_000_000);
    });
  });

  describe('Deriv connector across a crash (issue 9, finding 4)', () => {
    it('writes the attempt down before buying and the contract id as soon as Deriv answers', async () => {
      const notes: OrderNote[] = [];
      const contracts: number[] = [];
      const before = fake.contracts().length;
      const fill = await fresh().openLeg(account(), {
        clientOrderId: 'j1-d',
        symbol: 'ETH/USDT',
        side: 'sell',
        notional: '200',
        journal: async (note) => {
          notes.push(note);
          contracts.push(fake.contracts().length - before);
        },
      });
      // nothing bought when the attempt was written; bought when its id was
      expect(contracts).toEqual([0, 1]);
      expect(notes).toEqual([
        {
          kind: 'attempt',
          placement: {
            contractType: 'MULTDOWN',
            underlying: 'cryETHUSD',
            stake: '20.00',
            multiplier: 10,
            at: expect.any(Number),
          },
        },
        { kind: 'placed', venueOrderId: fill.venueOrderId },
      ]);
    });

    it('buys nothing when the attempt cannot be written down', async () => {
      const before = fake.contracts().length;
      const error = await fresh()
        .openLeg(account(), {
          clientOrderId: 'j2-d',
          symbol: 'ETH/USDT',
          side: 'sell',
          notional: '200',
          journal: async () => Promise.reject(new Error('database down')),
        })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/nothing was bought/) });
      expect(fake.contracts()).toHaveLength(before);
    });

    it('finds after a restart a contract whose buy was never answered, by the attempt written before it', async () => {
      let placement: OrderPlacement | null = null;
      const crashed = fresh();
      fake.swallowNext('buy');
      const bought = fake.waitForCall('buy');
      const lost = crashed.openLeg(account(), {
        clientOrderId: 'crash1-d',
        symbol: 'BTC/USDT',
        side: 'sell',
        notional: '2500',
        journal: async (note) => {
          if (note.kind === 'attempt') placement = note.placement;
        },
      });
      lost.catch(() => undefined);
      await bought;
      const contract = fake.contracts().at(-1);
      expect(contract).toMatchObject({ contractType: 'MULTDOWN', symbol: 'cryBTCUSD', multiplier: 50 });
      // The process died here. A new connector knows only what was written down.
      const restarted = fresh();
      const found = await restarted.findOrder(account(), 'BTC/USDT', 'crash1-d', {
        venueOrderId: null,
        placement,
        role: 'open',
      });
      expect(found).toMatchObject({ venueOrderId: String(contract?.contractId), fee: contract?.commission.toFixed() });
      // another trade's attempt with the same figures does not take a contract that is already claimed
      const claimed = await restarted.findOrder(account(), 'BTC/USDT', 'crash2-d', {
        venueOrderId: null,
        placement,
        role: 'open',
        claimed: new Set([String(contract?.contractId)]),
      });
      expect(claimed).toBeNull();
      // and by its id, once Deriv had answered
      expect(
        await fresh().findOrder(account(), 'BTC/USDT', 'crash1-d', {
          venueOrderId: String(contract?.contractId),
          placement: null,
          role: 'open',
        }),
      ).toEqual(found);
      expect((await restarted.openPositions(account())).map((p) => p.venueOrderId)).toContain(
        String(contract?.contractId),
      );
    });

    it('finds a close the venue made while the process was down through the contract id', async () => {
      const venue = fresh();
      const open = await venue.openLeg(account(), {
        clientOrderId: 'c1-d',
        symbol: 'ETH/USDT',
        side: 'buy',
        notional: '100',
      });
      await venue.closeLeg(account(), {
        clientOrderId: 'c1-d-c',
        symbol: 'ETH/USDT',
        side: 'buy',
        quantity: open.quantity,
        venueOrderId: open.venueOrderId,
      });
      const close = await fresh().findOrder(account(), 'ETH/USDT', 'c1-d-c', {
        venueOrderId: open.venueOrderId,
        placement: null,
        role: 'close',
      });
      expect(close).toMatchObject({ venueOrderId: open.venueOrderId, fee: '0' });
    });
  });

  describe('Deriv connector following open contracts (issue 9, finding 7)', () => {
    it('reports a stop-out of an open contract with its exit', async () => {
      const venue = fresh();
      fake.pushTick('cryETHUSD', '3000.000', '3001.000');
      const open = await venue.openLeg(account(), {
        clientOrderId: 'so1-d',
        symbol: 'ETH/USDT',
        side: 'sell',
        notional: '300',
      });
      const closed = firstValueFrom(venue.watchPosition(account(), 'ETH/USDT', open.venueOrderId, open.quantity));
      await fake.waitForSubscription(`poc:${open.venueOrderId}`);
      fake.pushTick('cryETHUSD', '3290.000', '3300.000');
      fake.stopOut(Number(open.venueOrderId));
      expect(await closed).toMatchObject({
        reason: 'Deriv stopped the contract out',
        fill: { venueOrderId: open.venueOrderId, price: '3300', quantity: open.quantity },
      });
    });
  });
});
