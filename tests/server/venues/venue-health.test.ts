// Venue health as the connectors measure it (issue 24), against the fake venues on loopback: Deriv's market-data socket
// (its keep-alive ping's round trip; a dropped connection shows disconnected with the error and when, kept after the
// reconnect), Binance's bookTicker stream and the REST round trip of GET /api/v3/ping, and the simulated market, which
// says it has no connection instead of inventing figures.
import { filter, firstValueFrom, type Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VenueHealth } from '../../../contract/venue-health';
import { createVenues } from '../../../server/venues';
import { BinanceVenue } from '../../../server/venues/binance/venue';
import type { DerivVenue } from '../../../server/venues/deriv/venue';
import { startFakeBinance, type FakeBinance } from '../../fakes/binance/server';
import { startFakeDeriv, type FakeDeriv } from '../../fakes/deriv/server';
import { connector } from './deriv-traders';

const when = (changes$: Observable<VenueHealth>, test: (h: VenueHealth) => boolean) =>
  firstValueFrom(changes$.pipe(filter(test)));

describe('Deriv health', () => {
  let fake: FakeDeriv;
  let venue: DerivVenue;
  beforeAll(async () => {
    fake = await startFakeDeriv();
    venue = connector(fake);
  });
  afterAll(async () => {
    await venue.close();
    await fake.close();
  });

  it('is connected with a measured ping round trip once quotes flow, and a drop shows disconnected with the error and when', async () => {
    const health = venue.health;
    expect(health.current()).toMatchObject({ venue: 'deriv', state: 'disconnected', since: null, latencyMs: null });
    const measured = when(health.changes$, (h) => h.state === 'connected' && h.latencyMs !== null);
    const quotes = venue.quotes('BTC/USDT').subscribe();
    const first = await measured;
    expect(first.latencyMs).toBeGreaterThanOrEqual(0);
    expect(first.probe).toMatch(/ping/);
    expect(first.lastError).toBeNull();
    expect(fake.calls).toContain('ping');
    await fake.waitForSubscription('ticks:cryBTCUSD');

    const before = Date.now();
    const dropped = when(health.changes$, (h) => h.state === 'disconnected');
    const back = when(health.changes$, (h) => h.state === 'connected');
    expect(fake.dropConnections()).toBeGreaterThan(0);
    const down = await dropped;
    expect(down.lastError?.message).toBe('Connection to Deriv lost');
    const at = Date.parse(down.lastError!.at);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect(down.since).toBe(down.lastError!.at);

    // The socket comes back by itself; the last error and its time stay for the reader.
    const up = await back;
    expect(up.lastError).toEqual(down.lastError);
    expect(Date.parse(up.since!)).toBeGreaterThanOrEqual(at);
    expect(health.current()).toMatchObject({ state: 'connected', lastError: down.lastError });
    quotes.unsubscribe();
  });

  it('is disconnected with the reason when Deriv cannot be reached at all', async () => {
    const nowhere = connector({ ...fake, publicUrl: 'ws://127.0.0.1:9/trading/v1/options/ws/public' });
    const down = when(nowhere.health.changes$, (h) => h.state === 'disconnected' && h.lastError !== null);
    const quotes = nowhere.quotes('ETH/USDT').subscribe();
    expect((await down).lastError?.message).toMatch(/^Cannot reach Deriv/);
    quotes.unsubscribe();
    await nowhere.close();
  });
});

describe('Binance health', () => {
  let fake: FakeBinance;
  let venue: BinanceVenue;
  beforeAll(async () => {
    fake = await startFakeBinance();
    venue = new BinanceVenue({
      endpoints: { restUrl: fake.restUrl, wsUrl: fake.wsUrl },
      backoff: { initialMs: 20, maxMs: 200 },
    });
  });
  afterAll(async () => {
    await venue.close();
    await fake.close();
  });

  it('is connected while bookTicker answers, with the REST round trip measured, and down with the error after a drop', async () => {
    const connected = when(venue.health.changes$, (h) => h.state === 'connected');
    const measured = when(venue.health.changes$, (h) => h.latencyMs !== null);
    const quotes = venue.quotes('BTC/USDT').subscribe();
    try {
      await fake.waitForSubscription('btcusdt@bookTicker');
      fake.pushQuote('BTCUSDT', '90000', '90001');
      expect((await connected).venue).toBe('binance');
      const probed = await measured;
      expect(probed.latencyMs).toBeGreaterThanOrEqual(0);
      expect(probed.probe).toMatch(/api\/v3\/ping/);
      expect(fake.requests.some((r) => r.path === '/api/v3/ping')).toBe(true);

      const dropped = when(venue.health.changes$, (h) => h.state === 'disconnected');
      const back = when(venue.health.changes$, (h) => h.state === 'connected');
      expect(fake.dropStreams()).toBeGreaterThan(0);
      const down = await dropped;
      expect(down.lastError?.message).toBeTruthy();
      expect(Date.parse(down.lastError!.at)).toBeLessThanOrEqual(Date.now());
      // ccxt subscribes again on the next watch; the first quote after it shows the stream is back.
      await fake.waitForSubscription('btcusdt@bookTicker');
      fake.pushQuote('BTCUSDT', '90002', '90003');
      expect((await back).lastError).toEqual(down.lastError);
    } finally {
      quotes.unsubscribe();
    }
  });
});

describe('simulated market health', () => {
  it('says there is no connection and measures nothing', async () => {
    const venues = await createVenues({ market: 'sim' } as Parameters<typeof createVenues>[0], { seed: 7 });
    try {
      for (const venue of [venues.binance, venues.deriv]) {
        const health = venue.health!.current();
        expect(health).toMatchObject({ venue: venue.id, state: 'simulated', latencyMs: null, lastError: null });
        expect(health.probe).toMatch(/simulated market/);
      }
    } finally {
      await venues.close();
    }
  });
});
