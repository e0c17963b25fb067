// The simulated market's parameters, in one place, with where each figure comes from. SIM_PROFILE picks one:
//   calibrated (default) — as close to the real Binance–Deriv pair as public figures allow, so paper results predict
//                          live ones: the basis sits within a few basis points and a round trip's ~30 bp of costs is
//                          rarely on offer;
//   demo                 — the same venues with frequent, large dislocations, for showing the product working. Its
//                          opportunities are exaggerated, and the app says so on screen.
// `npx tsx bench/market.ts` prints what each profile produces over a simulated day.
import type { SimProfile } from '../../../contract/domain';
import { DEFAULT_SYMBOLS, pairSpec, type SymbolId } from '../../../contract/pairs';
import type { DislocationParams, SimParams, SymbolSimParams } from './params';

/**
 * Latent prices, per pair: the range the starting price is drawn from (each coin's 2024–25 trading range on Binance,
 * rounded) and its annualised volatility; the quote decimals are Binance's PRICE_FILTER tick (contract/pairs.ts).
 * BTC's annualised realised volatility was 40–55 % through 2023–24 (Glassnode's rolling 3-month to 1-year figures;
 * one-week windows touched 20 % and 70 %): 50 %, about 0.9 bp per √second. ETH has run at roughly 1.3× BTC's
 * volatility over the same years: 65 %, about 1.2 bp per √second. The other coins from the same kind of figure
 * (1-year realised volatility of daily returns through 2024 as Kaiko Research and CoinMetrics publish it, rounded to
 * 5 points): BNB and TRX near BTC's (45–50 %), LTC, BCH, ADA, DOT and XLM 70–75 %, XRP and SOL 80 %, DOGE 90 %.
 * Volatility matters to the basis only through the index's lag (a faster coin drifts further from Binance in the
 * lagged second), so these figures need to be right to tens of percent, not to the point.
 */
const PAIR_LATENTS: Record<string, Omit<SymbolSimParams, 'decimals'>> = {
  BTC: { priceRange: [60_000, 100_000], annualVolatility: 0.5 },
  ETH: { priceRange: [2_000, 5_000], annualVolatility: 0.65 },
  LTC: { priceRange: [60, 130], annualVolatility: 0.75 },
  XRP: { priceRange: [0.45, 3], annualVolatility: 0.8 },
  SOL: { priceRange: [100, 260], annualVolatility: 0.8 },
  BCH: { priceRange: [250, 650], annualVolatility: 0.75 },
  BNB: { priceRange: [300, 800], annualVolatility: 0.45 },
  ADA: { priceRange: [0.3, 1.2], annualVolatility: 0.75 },
  DOGE: { priceRange: [0.08, 0.45], annualVolatility: 0.9 },
  DOT: { priceRange: [3.5, 11], annualVolatility: 0.75 },
  XLM: { priceRange: [0.08, 0.55], annualVolatility: 0.75 },
  TRX: { priceRange: [0.1, 0.45], annualVolatility: 0.5 },
};

/** The simulated market's parameters for one pair, or null for a pair it does not model. */
export function modelledPair(symbol: SymbolId): SymbolSimParams | null {
  const spec = pairSpec(symbol);
  const latent = PAIR_LATENTS[spec.base];
  return latent ? { ...latent, decimals: spec.priceDecimals } : null;
}

/** Every pair the simulated market can model. */
export const MODELLED_SYMBOLS: readonly SymbolId[] = Object.keys(PAIR_LATENTS).map((base) => `${base}/USDT` as const);

/**
 * A profile's market over these pairs (in the order given); throws naming a pair it cannot model (the start-up check,
 * server/venues/pair-check.ts, refuses such a configuration first).
 */
export function withPairs(params: SimParams, symbols: readonly SymbolId[]): SimParams {
  const entries = symbols.map((symbol) => {
    // A pair the profile already carries keeps its (possibly overridden) parameters.
    const modelled = params.symbols[symbol] ?? modelledPair(symbol);
    if (!modelled) throw new Error(`The simulated market does not model ${symbol}`);
    return [symbol, modelled] as const;
  });
  return { ...params, symbols: Object.fromEntries(entries) };
}

const SYMBOLS: SimParams['symbols'] = Object.fromEntries(DEFAULT_SYMBOLS.map((s) => [s, modelledPair(s)!]));

/**
 * Binance spot is where BTC/USDT and ETH/USDT are discovered, so its mid is the latent price itself. Its book is
 * one or a few ticks of 0.01 USDT wide (0.01 bp–1 bp: about 0.001 bp for BTC, 0.03 bp for ETH, wider in fast
 * markets); bookTicker pushes many updates a second. One model step is 100 ms: ten Binance quotes a second.
 */
const BINANCE = { halfSpread: 0.000_000_5, noise: 0.000_005, lagMs: 0, smoothingMs: 0, updateMs: 100 };

/**
 * Deriv's crypto feed is not a venue's own book but an index over several exchanges, computed and published as one
 * tick a second (the `tick` stream's `epoch` is in whole seconds). An index trails the fastest venue: it is built
 * from other venues' last prices, it is smoothed against outliers, and it is published after the fact. Modelled as
 * the latent price delayed by 1 s, smoothed with a 2 s exponential time constant, held between 1 s publications,
 * with 0.5 bp of composition noise per tick. Together the lag and smoothing give a spread against Binance of
 * σ·√(lag + τ/2) ≈ 1.3 bp (BTC) to 1.6 bp (ETH) from price moves alone. Deriv's quoted spread on crypto is a few
 * basis points (published BTC/USD spreads near 20 USD at 65,000 are about 3 bp, ETH/USD 1.6 USD at 3,400 about
 * 5 bp): a half-spread of 2 bp. Its commission is charged per contract (execution.ts), not in the quote.
 */
const DERIV = { halfSpread: 0.000_2, noise: 0.000_05, lagMs: 1000, smoothingMs: 2000, updateMs: 1000 };

/**
 * The basis outside dislocations. The real Binance–Deriv basis is a few basis points: the index prices BTC in USD
 * from USD and USDT venues while Binance prices it in USDT, and the USDT/USD rate and the venues' own premia wander
 * a few bp either side of parity over minutes. An Ornstein–Uhlenbeck process with mean 0, stationary σ 2.5 bp and a
 * 5-minute half-life; with the lag above, |spread| has a median near 2 bp and a 99th percentile under 10 bp.
 */
const BASIS: SimParams['basis'] = { mean: 0, sd: 0.000_25, halfLifeSeconds: 300 };

/**
 * Dislocations: moments when the index falls behind a fast move (a liquidation cascade, a news candle) or a
 * component venue misprints. They are rare — a few a day per symbol, about 0.3 an hour — and moderate: 10–30 bp,
 * converging with a 3–20 s half-life as the index catches up. One in five widens first (to 1.2–1.8× over 3–20 s)
 * and one in twenty converges only slowly, so a trade on a gap is not a sure thing. With a round trip costing about
 * 30 bp (2 × 0.1 % Binance taker fee, Deriv's commission, slippage), |spread| reaches a default user's opening
 * threshold of 35 bp a few times a simulated day per symbol (0 to 5, by seed), for seconds at a time — and a gap
 * that widens, or converges slowly, does not pay.
 */
const CALIBRATED_DISLOCATIONS: DislocationParams = {
  perMinute: 0.3 / 60,
  size: [0.001, 0.003],
  widenProbability: 0.2,
  widenFactor: [1.2, 1.8],
  widenSeconds: [3, 20],
  halfLifeSeconds: [3, 20],
  stickyProbability: 0.05,
  stickyHalfLifeSeconds: 90,
  jitter: 0.05,
};

/**
 * Demonstration dislocations: the simulation's original lively figures — about 0.8 a minute per symbol, 30–150 bp —
 * so that a user with the default limits sees trades open and close within a minute or two. Nothing like the real
 * pair: |spread| is at or above 35 bp about a fifth of the time.
 */
const DEMO_DISLOCATIONS: DislocationParams = {
  perMinute: 0.8,
  size: [0.003, 0.015],
  widenProbability: 0.25,
  widenFactor: [1.15, 1.6],
  widenSeconds: [2, 10],
  halfLifeSeconds: [4, 15],
  stickyProbability: 0.1,
  stickyHalfLifeSeconds: 120,
  jitter: 0.05,
};

export const CALIBRATED_PARAMS: SimParams = {
  tickMs: 100,
  symbols: SYMBOLS,
  venues: { binance: BINANCE, deriv: DERIV },
  basis: BASIS,
  dislocation: CALIBRATED_DISLOCATIONS,
};

export const DEMO_PARAMS: SimParams = { ...CALIBRATED_PARAMS, dislocation: DEMO_DISLOCATIONS };

export const SIM_PROFILE_PARAMS: Record<SimProfile, SimParams> = { calibrated: CALIBRATED_PARAMS, demo: DEMO_PARAMS };
