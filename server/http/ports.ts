// What the HTTP layer needs from the trading engine, as interfaces, so routes and tests need no running engine.
import type { SymbolId } from '../../contract/domain';

/** Latest mid prices per symbol and venue; null while a venue has not quoted. */
export interface PriceBook {
  /** Mid price for valuing holdings: Binance's mid, else Deriv's, else null. */
  mid(symbol: SymbolId): number | null;
}

/** Until the engine provides real prices, nothing is known. */
export const EMPTY_PRICE_BOOK: PriceBook = { mid: () => null };
