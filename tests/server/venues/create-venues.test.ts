import { combineLatest, filter, firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVenues } from '../../../server/venues';
import { BinanceVenue } from '../../../server/venues/binance/venue';
import { DerivVenue } from '../../../server/venues/deriv/venue';
import { SimVenue } from '../../../server/venues/sim/venue';
import { startFakeBinance, type FakeBinance } from '../../fakes/binance/server';
import { startFakeDeriv, type FakeDeriv } from '../../fakes/deriv/server';
import { startFakeVenues } from '../../fakes/venues';

const endpoints = {
  binanceRestUrl: 'http://127.0.0.1:9',
  binanceWsUrl: 'ws://127.0.0.1:9',
  derivWsUrl: 'ws://127.0.0.1:9/websockets/v3',
  derivPublicWsUrl: 'ws://127.0.0.1:9/trading/v1/options/ws/public',
  derivApiUrl: 'http://127.0.0.1:9',
  derivAppId: '1089',
};

describe('createVenues', () => {
  it('builds simulated venues on one seeded market by default, quoting both symbols at once', async () => {
    const venues = await createVenues({ market: 'sim', ...endpoints }, { seed: 5, sim: { latencyMs: 0 } });
    expect(venues.binance).toBeInstanceOf(SimVenue);
    expect(venues.deriv.id).toBe('deriv');
    const [b, d] = await firstValueFrom(
      combineLatest([venues.binance.quotes('BTC/USDT'), venues.deriv.quotes('BTC/USDT')]),
    );
    expect(Math.abs(d.bid / b.bid - 1)).toBeLessThan(0.05);
    const fill = await venues.deriv.openLeg(
      { userId: 'u', credentials: {} },
      { clientOrderId: 'x', symbol: 'ETH/USDT', side: 'sell', notional: '100' },
    );
    expect(fill.venueOrderId).toBe('paper:x');
    await venues.close();
  });

  describe('live', () => {
    let binance: FakeBinance;
    let deriv: FakeDeriv;
    beforeAll(async () => {
      [binance, deriv] = await Promise.all([startFakeBinance(), startFakeDeriv()]);
    });
    afterAll(async () => {
      await Promise.all([binance.close(), deriv.close()]);
    });

    it('connects the public quote streams of both venues at the configured endpoints (Deriv: the new public socket)', async () => {
      const venues = await createVenues({
        market: 'live',
        binanceRestUrl: binance.restUrl,
        binanceWsUrl: binance.wsUrl,
        derivWsUrl: deriv.url,
        derivPublicWsUrl: deriv.publicUrl,
        derivApiUrl: deriv.apiUrl,
        derivAppId: '1089',
      });
      expect(venues.binance).toBeInstanceOf(BinanceVenue);
      expect(venues.deriv).toBeInstanceOf(DerivVenue);
      expect(venues.simMarket).toBeNull();
      const both = firstValueFrom(
        combineLatest([
          venues.binance.quotes('BTC/USDT').pipe(filter((q) => q.bid === 90000)),
          venues.deriv.quotes('BTC/USDT').pipe(filter((q) => q.bid === 90500)),
        ]),
      );
      await Promise.all([
        binance.waitForSubscription('btcusdt@bookTicker'),
        deriv.waitForSubscription('ticks:cryBTCUSD'),
      ]);
      binance.pushQuote('BTCUSDT', '90000.00', '90000.01');
      deriv.pushTick('cryBTCUSD', '90500.000', '90510.000');
      const [b, d] = await both;
      expect(deriv.requests.filter((r) => r.call === 'ticks').map((r) => r.dialect)).toEqual(['new']);
      expect(b).toMatchObject({ venue: 'binance', ask: 90000.01 });
      expect(d).toMatchObject({ venue: 'deriv', ask: 90510 });
      await venues.close();
    });
  });
});

describe('startFakeVenues', () => {
  it('feeds both fakes from the simulated market, so live venues see the same prices as the sim', async () => {
    const fakes = await startFakeVenues({ simSeed: 21 });
    const venues = await createVenues({
      market: 'live',
      binanceRestUrl: fakes.env.BINANCE_REST_URL,
      binanceWsUrl: fakes.env.BINANCE_WS_URL,
      derivWsUrl: fakes.env.DERIV_WS_URL,
      derivPublicWsUrl: fakes.env.DERIV_PUBLIC_WS_URL,
      derivApiUrl: fakes.env.DERIV_API_URL,
      derivAppId: '1089',
    });
    const [b, d] = await firstValueFrom(
      combineLatest([venues.binance.quotes('ETH/USDT'), venues.deriv.quotes('ETH/USDT')]),
    );
    const sim = fakes.market!;
    expect(b.bid).toBeGreaterThan(sim.latest('binance', 'ETH/USDT').bid * 0.99);
    expect(Math.abs(d.bid / b.bid - 1)).toBeLessThan(0.05);
    await venues.close();
    await fakes.close();
  });
});
