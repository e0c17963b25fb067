// Both fake venues at once, optionally fed by the simulated market so that a server in MARKET=live mode sees
// moving, dislocating prices: for end-to-end and integration tests of the live path.
import type { Subscription } from 'rxjs';
import { pairSpec } from '../../contract/pairs';
import { SimMarket } from '../../server/venues/sim/market';
import type { SimParams } from '../../server/venues/sim/params';
import { startFakeBinance, type FakeBinance, type FakeBinanceAccount } from './binance/server';
import { startFakeDeriv, type FakeDeriv, type FakeDerivAccount, type FakeDerivPat } from './deriv/server';

export interface FakeVenuesOptions {
  binanceAccounts?: FakeBinanceAccount[];
  derivAccounts?: FakeDerivAccount[];
  /** Deriv's new API: personal access tokens with their app ids and Options accounts. */
  derivPats?: FakeDerivPat[];
  /** Drive both fakes' quotes from a simulated market with this seed; no quotes move when omitted. */
  simSeed?: number;
  simParams?: SimParams;
}

export interface FakeVenues {
  binance: FakeBinance;
  deriv: FakeDeriv;
  /** The environment a server needs to trade against these fakes. */
  env: {
    MARKET: 'live';
    BINANCE_REST_URL: string;
    BINANCE_WS_URL: string;
    DERIV_WS_URL: string;
    DERIV_PUBLIC_WS_URL: string;
    DERIV_API_URL: string;
  };
  market: SimMarket | null;
  close(): Promise<void>;
}

export async function startFakeVenues(options: FakeVenuesOptions = {}): Promise<FakeVenues> {
  const [binance, deriv] = await Promise.all([
    startFakeBinance({ accounts: options.binanceAccounts }),
    startFakeDeriv({ accounts: options.derivAccounts, pats: options.derivPats }),
  ]);
  let market: SimMarket | null = null;
  const feeds: Subscription[] = [];
  if (options.simSeed !== undefined) {
    market = new SimMarket({ seed: options.simSeed, params: options.simParams });
    // Every pair the simulated market models (simParams' pairs; the spec's two by default).
    for (const symbol of market.symbols) {
      const { binanceSymbol, derivUnderlying, priceDecimals } = pairSpec(symbol);
      feeds.push(
        market
          .quotes('binance', symbol)
          .subscribe((q) =>
            binance.pushQuote(binanceSymbol, q.bid.toFixed(priceDecimals), q.ask.toFixed(priceDecimals)),
          ),
      );
      feeds.push(
        market
          .quotes('deriv', symbol)
          .subscribe((q) => deriv.pushTick(derivUnderlying, q.bid.toFixed(3), q.ask.toFixed(3))),
      );
    }
    market.start();
  }
  return {
    binance,
    deriv,
    market,
    env: {
      MARKET: 'live',
      BINANCE_REST_URL: binance.restUrl,
      BINANCE_WS_URL: binance.wsUrl,
      DERIV_WS_URL: deriv.url,
      DERIV_PUBLIC_WS_URL: deriv.publicUrl,
      DERIV_API_URL: deriv.apiUrl,
    },
    close: async () => {
      feeds.forEach((f) => f.unsubscribe());
      market?.close();
      await Promise.all([binance.close(), deriv.close()]);
    },
  };
}
