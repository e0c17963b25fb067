// Builds the two venues the engine trades on: simulated (default) or live, chosen by configuration.
import type { SchedulerLike } from 'rxjs';
import { InMemoryPaperBook } from './sim/paper-book';
import { SimMarket } from './sim/market';
import type { SimParams } from './sim/params';
import { SimVenue } from './sim/venue';
import type { PaperBook, Venue } from './types';

/** The part of the server configuration the venues read (structurally a subset of server/config.ts's Config). */
export interface VenuesConfig {
  market: 'sim' | 'live';
  binanceRestUrl: string;
  binanceWsUrl: string;
  derivWsUrl: string;
  /** App id for Deriv's public streams when no user's own is at hand; 1089 is Deriv's public test app. */
  derivAppId?: string;
}

export interface VenuesOptions {
  /** Where paper orders and balances live in the simulated market; in memory when not given. */
  paperBook?: PaperBook;
  seed?: number;
  sim?: { params?: SimParams; latencyMs?: number; scheduler?: SchedulerLike };
}

export interface Venues {
  binance: Venue;
  deriv: Venue;
  /** The simulated market behind the venues, when simulated (diagnostics, tests). */
  simMarket: SimMarket | null;
  close(): Promise<void>;
}

export function createVenues(config: VenuesConfig, options: VenuesOptions = {}): Venues {
  if (config.market === 'live') throw new Error('Live venues are not available yet');
  const market = new SimMarket({ seed: options.seed, params: options.sim?.params, scheduler: options.sim?.scheduler });
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

export type { Venue, PaperBook } from './types';
export { InMemoryPaperBook, SimMarket, SimVenue };
