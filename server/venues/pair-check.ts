// Whether the market offers the configured pairs (SYMBOLS), asked once at start: a pair a venue does not offer is
// refused with a message naming it and the venue, before anything trades. On the live market Binance must trade
// `<BASE>USDT` on spot with its LOT_SIZE and NOTIONAL filters (exchangeInfo) and Deriv must list the pair's crypto
// underlying (active_symbols on its public socket) with both MULTUP and MULTDOWN offered (contracts_for); the
// simulated market must model the pair (sim/profiles.ts).
import { pairSpec, type SymbolId } from '../../contract/pairs';
import { DerivClient, type Json } from './deriv/client';
import { MODELLED_SYMBOLS } from './sim/profiles';

/** What the venues offer, per configured pair: the admin's view and the start-up check's answer. */
export interface PairOffer {
  symbol: SymbolId;
  binance: boolean;
  deriv: boolean;
}

export interface PairCheckConfig {
  market: 'sim' | 'live';
  binanceRestUrl: string;
  derivPublicWsUrl: string;
}

/** The problems with a set of pairs on a market, each naming a pair and what lacks it; empty when all are offered. */
export function pairProblems(offers: readonly PairOffer[], market: 'sim' | 'live'): string[] {
  const problems: string[] = [];
  for (const offer of offers) {
    const missing = [!offer.binance && 'Binance', !offer.deriv && 'Deriv'].filter((v): v is string => v !== false);
    if (missing.length === 0) continue;
    problems.push(
      market === 'sim'
        ? `SYMBOLS: ${offer.symbol} is not modelled by the simulated market`
        : `SYMBOLS: ${offer.symbol} is not offered by ${missing.join(' nor ')} (${venueNames(offer.symbol, missing)})`,
    );
  }
  return problems;
}

const venueNames = (symbol: SymbolId, missing: string[]): string =>
  missing
    .map((venue) =>
      venue === 'Binance'
        ? `no trading spot ${pairSpec(symbol).binanceSymbol}`
        : `no ${pairSpec(symbol).derivUnderlying} with MULTUP and MULTDOWN`,
    )
    .join('; ');

/** What the market offers of these pairs. */
export async function offeredPairs(config: PairCheckConfig, symbols: readonly SymbolId[]): Promise<PairOffer[]> {
  if (config.market === 'sim')
    return symbols.map((symbol) => {
      const modelled = MODELLED_SYMBOLS.includes(symbol);
      return { symbol, binance: modelled, deriv: modelled };
    });
  const [binance, deriv] = await Promise.all([
    binanceSpotPairs(config.binanceRestUrl),
    derivMultiplierPairs(config.derivPublicWsUrl, symbols),
  ]);
  return symbols.map((symbol) => ({
    symbol,
    binance: binance.has(pairSpec(symbol).binanceSymbol),
    deriv: deriv.has(pairSpec(symbol).derivUnderlying),
  }));
}

interface ExchangeInfoSymbol {
  symbol?: string;
  status?: string;
  quoteAsset?: string;
  isSpotTradingAllowed?: boolean;
  filters?: Array<{ filterType?: string }>;
}

/** Binance's spot symbols quoted in USDT that trade now and state the filters an order is checked against. */
async function binanceSpotPairs(restUrl: string): Promise<Set<string>> {
  const response = await fetch(new URL('/api/v3/exchangeInfo', restUrl), { signal: AbortSignal.timeout(15_000) });
  if (!response.ok) throw new Error(`Binance exchangeInfo answered HTTP ${response.status}`);
  const info = (await response.json()) as { symbols?: ExchangeInfoSymbol[] };
  const trading = new Set<string>();
  for (const s of info.symbols ?? []) {
    const filters = new Set((s.filters ?? []).map((f) => f.filterType));
    const hasNotional = filters.has('NOTIONAL') || filters.has('MIN_NOTIONAL');
    if (s.symbol && s.status === 'TRADING' && s.quoteAsset === 'USDT' && s.isSpotTradingAllowed !== false)
      if (filters.has('LOT_SIZE') && hasNotional) trading.add(s.symbol);
  }
  return trading;
}

/** Deriv's crypto underlyings (of these pairs) that are open and offer both multiplier directions. */
async function derivMultiplierPairs(publicUrl: string, symbols: readonly SymbolId[]): Promise<Set<string>> {
  const client = new DerivClient({ url: publicUrl, requestTimeoutMs: 15_000 });
  try {
    const answer = await client.request({ active_symbols: 'brief' });
    const listed = new Set(
      ((answer['active_symbols'] ?? []) as Json[])
        .filter((s) => s['is_trading_suspended'] !== 1)
        .map((s) => String(s['underlying_symbol'] ?? s['symbol'])),
    );
    const offered = new Set<string>();
    for (const symbol of symbols) {
      const underlying = pairSpec(symbol).derivUnderlying;
      if (!listed.has(underlying)) continue;
      const contracts = await client.request({ contracts_for: underlying });
      const available = ((contracts['contracts_for'] as Json | undefined)?.['available'] ?? []) as Json[];
      const types = new Set(available.map((c) => c['contract_type']));
      if (types.has('MULTUP') && types.has('MULTDOWN')) offered.add(underlying);
    }
    return offered;
  } finally {
    await client.close();
  }
}
