// Builds the two venues the engine trades on: simulated (default) or live, chosen by configuration.
import type { SchedulerLike } from 'rxjs';
import type { BackoffOptions } from './backoff';
import { DerivVenue } from './deriv/venue';
import { InMemoryPaperBook } from './sim/paper-book';
import { SimMarket, type SavedSimMarket } from './sim/market';
import type { SimParams } from './sim/params';
import { SimVenue } from './sim/venue';
import type { PaperBook, Venue } from './types';

/** The part of the server configuration the venues read (structurally a subset of server/config.ts's Config). */
export interface VenuesConfig {
  market: 'sim' | 'live';
  binanceRestUrl: string;
  binanceWsUrl: string;
  /** Deriv's legacy API (DERIV_WS_URL), for users whose token belongs to it. */
  derivWsUrl: string;
  /** Deriv's new API: the public socket for quotes and offers, the REST base for accounts and one-time passwords. */
  derivPublicWsUrl: string;
  derivApiUrl: string;
  /** App id for legacy tokens saved without their own (DERIV_APP_ID). */
  derivAppId: string;
}

export interface VenuesOptions {
  /** Where paper orders and balances live in the simulated market; in memory when not given. */
  paperBook?: PaperBook;
  seed?: number;
  sim?: { params?: SimParams; latencyMs?: number; scheduler?: SchedulerLike; resume?: SavedSimMarket };
  live?: { backoff?: BackoffOptions; onStreamError?: (venue: 'binance', error: unknown) => void };
}

export interface Venues {
  binance: Venue;
  deriv: Venue;
  /** The simulated market behind the venues, when simulated (diagnostics, tests). */
  simMarket: SimMarket | null;
  close(): Promise<void>;
}

export async function createVenues(config: VenuesConfig, options: VenuesOptions = {}): Promise<Venues> {
  return config.market === 'live' ? liveVenues(config, options) : simulatedVenues(options);
}

function simulatedVenues(options: VenuesOptions): Venues {
  const market = new SimMarket({
    seed: options.seed,
    params: options.sim?.params,
    scheduler: options.sim?.scheduler,
    resume: options.sim?.resume,
  });
  const paperBook = options.paperBook ?? new InMemoryPaperBook();
  const venueOptions = { market, paperBook, latencyMs: options.sim?.latencyMs };
  const binance = new SimVenue('binance', venueOptions);
  const deriv = new SimVenue('deriv', venueOptions);
  market.start();
  return {
    binance,
    deriv,
    simMarket: market,
    close: async () => {
      await Promise.all([binance.close(), deriv.close()]);
      market.close();
    },
  };
}

/**
 * Real venues: quote streams are public and shared; orders act per user account with that user's credentials.
 * The Binance connector (ccxt: some 80 MB resident once loaded) is imported only here, so a simulated market never
 * pays for it.
 */
async function liveVenues(config: VenuesConfig, options: VenuesOptions): Promise<Venues> {
  const { BinanceVenue } = await import('./binance/venue');
  const binance = new BinanceVenue({
    endpoints: { restUrl: config.binanceRestUrl, wsUrl: config.binanceWsUrl },
    backoff: options.live?.backoff,
    onStreamError: options.live?.onStreamError && ((error) => options.live?.onStreamError?.('binance', error)),
  });
  const deriv = new DerivVenue({
    url: config.derivWsUrl,
    publicUrl: config.derivPublicWsUrl,
    apiUrl: config.derivApiUrl,
    appId: config.derivAppId,
    backoff: options.live?.backoff,
  });
  return {
    binance,
    deriv,
    simMarket: null,
    close: async () => {
      await Promise.all([binance.close(), deriv.close()]);
    },
  };
}

export type { Venue, PaperBook } from './types';
// BinanceVenue is not re-exported: importing it loads ccxt (see liveVenues); import ./binance/venue directly.
export { InMemoryPaperBook, SimMarket, SimVenue, DerivVenue };
