// The pairs the product knows how to trade: what each is called on both venues and Binance's order filters for it.
// Which of them a server trades is configuration (SYMBOLS, validated at start against what the venues offer); this
// catalogue is only what the product can map and the simulated market can model. No dependencies: the client imports
// it freely.

/** A pair's name on the wire and on screen: the coin, a slash, USDT (Binance's quote currency; Deriv quotes USD). */
export type SymbolId = `${string}/USDT`;

export interface PairSpec {
  symbol: SymbolId;
  /** The coin traded, and how a person calls it. */
  base: string;
  name: string;
  /** Deriv's crypto underlying (`ticks`, `contracts_for`, `proposal`); a live start checks it in `active_symbols`. */
  derivUnderlying: string;
  /** Binance's spot symbol; a live start checks it trades in `exchangeInfo`. */
  binanceSymbol: string;
  /**
   * Binance's filters as `exchangeInfo` listed them (2024–25): LOT_SIZE step, NOTIONAL minimum (USDT) and the
   * PRICE_FILTER tick as decimals. The live market reads the venue's own figures at start; the simulated market
   * trades with these.
   */
  lotStep: string;
  minNotional: string;
  priceDecimals: number;
}

const pair = (
  base: string,
  name: string,
  derivUnderlying: string,
  lotStep: string,
  priceDecimals: number,
  minNotional = '5',
): PairSpec => ({
  symbol: `${base}/USDT`,
  base,
  name,
  derivUnderlying,
  binanceSymbol: `${base}USDT`,
  lotStep,
  minNotional,
  priceDecimals,
});

/**
 * Deriv offers multiplier contracts on these crypto underlyings (its `cry<BASE>USD` names; DOGE is `cryDOGUSD`) and
 * Binance trades each against USDT. The first two are the spec's pairs, in the spec's order. The order here is the
 * order a server lists its pairs in.
 */
export const PAIR_CATALOGUE: readonly PairSpec[] = [
  pair('BTC', 'Bitcoin', 'cryBTCUSD', '0.00001', 2),
  pair('ETH', 'Ethereum', 'cryETHUSD', '0.0001', 2),
  pair('LTC', 'Litecoin', 'cryLTCUSD', '0.001', 2),
  pair('XRP', 'XRP', 'cryXRPUSD', '0.1', 4),
  pair('SOL', 'Solana', 'crySOLUSD', '0.001', 2),
  pair('BCH', 'Bitcoin Cash', 'cryBCHUSD', '0.001', 1),
  pair('BNB', 'BNB', 'cryBNBUSD', '0.001', 2),
  pair('ADA', 'Cardano', 'cryADAUSD', '0.1', 4),
  pair('DOGE', 'Dogecoin', 'cryDOGUSD', '1', 5),
  pair('DOT', 'Polkadot', 'cryDOTUSD', '0.01', 3),
  pair('XLM', 'Stellar', 'cryXLMUSD', '1', 4),
  pair('TRX', 'TRON', 'cryTRXUSD', '0.1', 4),
];

/** The pairs a server trades unless SYMBOLS says otherwise: the spec's two. */
export const DEFAULT_SYMBOLS: readonly SymbolId[] = ['BTC/USDT', 'ETH/USDT'];

const BY_SYMBOL = new Map<string, PairSpec>(PAIR_CATALOGUE.map((p) => [p.symbol, p]));

/** A pair the product knows (in the catalogue). */
export const isKnownSymbol = (value: unknown): value is SymbolId => typeof value === 'string' && BY_SYMBOL.has(value);

/** The catalogue's entry for a pair; throws for one it does not know (callers hold validated pairs). */
export function pairSpec(symbol: SymbolId): PairSpec {
  const spec = BY_SYMBOL.get(symbol);
  if (!spec) throw new Error(`Unknown pair ${symbol}`);
  return spec;
}

/** A pair's place in the catalogue: a small number that names it in columns (replay buffers cross threads). */
export const catalogueIndex = (symbol: SymbolId): number => PAIR_CATALOGUE.indexOf(pairSpec(symbol));

/** The pair at a place in the catalogue. */
export function symbolAtIndex(index: number): SymbolId {
  const spec = PAIR_CATALOGUE[index];
  if (!spec) throw new Error(`No pair at catalogue index ${index}`);
  return spec.symbol;
}

/** Pairs in the catalogue's order (the order every list of pairs is shown in), without repeats. */
export const inCatalogueOrder = (symbols: Iterable<SymbolId>): SymbolId[] => {
  const wanted = new Set<string>(symbols);
  return PAIR_CATALOGUE.filter((p) => wanted.has(p.symbol)).map((p) => p.symbol);
};

/**
 * Reads a comma-separated list of pairs (the SYMBOLS setting): every name must be in the catalogue, none twice, at
 * least one. Answers the pairs in the catalogue's order, or a message naming what is wrong.
 */
export function parseSymbolList(text: string): { symbols: SymbolId[] } | { error: string } {
  const names = text
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s !== '');
  if (names.length === 0) return { error: 'name at least one pair, e.g. BTC/USDT,ETH/USDT' };
  const unknown = names.filter((n) => !BY_SYMBOL.has(n));
  if (unknown.length > 0)
    return {
      error: `${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not a pair this product trades (it knows ${PAIR_CATALOGUE.map((p) => p.symbol).join(', ')})`,
    };
  const repeated = names.filter((n, i) => names.indexOf(n) !== i);
  if (repeated.length > 0) return { error: `${repeated.join(', ')} named twice` };
  return { symbols: inCatalogueOrder(names as SymbolId[]) };
}

/** The coin a pair trades (BTC for BTC/USDT). */
export const baseOf = (symbol: SymbolId): string => pairSpec(symbol).base;

/** The currencies a set of pairs holds: USDT and each pair's coin, in the catalogue's order. */
export const currenciesOf = (symbols: readonly SymbolId[]): string[] => [
  'USDT',
  ...inCatalogueOrder(symbols).map((s) => pairSpec(s).base),
];
