// The simulated book's depth under load (issue 21): orders of many users meeting the same quote consume its depth
// together, so a burst does not fill a thousand users at one price.
//
// Impact model: each venue's quote stands for a book whose depth on each side is spread evenly, so every `depthUsdt`
// of notional already filled against the same quote (same symbol, side and quote timestamp) moves the price one
// `impactPerDepth` further away: a buy pays more above the ask, a sell gets less below the bid. An order is priced at
// the middle of what it consumes (the book it walks through), on top of the fixed slippage. The depth refills when
// the venue quotes again (a new timestamp). The defaults, 1 bp per 250,000 USDT, are of the order of BTC/USDT spot's
// resting liquidity near the touch; Deriv, which prices its contracts off its own feed, is modelled the same way.
// Consumption is recorded when the order is priced (before its fill is written), so concurrent orders see each other.
import type { SymbolId } from '../../../contract/domain';

export interface DepthModel {
  /** Notional (USDT) that moves the price by one `impactPerDepth`. */
  depthUsdt: number;
  /** The price move (a fraction) per `depthUsdt` consumed. */
  impactPerDepth: number;
}

export const DEFAULT_DEPTH: DepthModel = { depthUsdt: 250_000, impactPerDepth: 0.0001 };

export class BookDepth {
  private readonly consumed = new Map<string, { ts: number; usdt: number }>();

  constructor(private readonly model: DepthModel = DEFAULT_DEPTH) {}

  /**
   * Takes `notional` from the side of the quote stamped `quoteTs` and answers the extra slippage (a fraction) the
   * order fills at: the impact at the middle of the depth it consumes.
   */
  take(symbol: SymbolId, side: 'buy' | 'sell', quoteTs: number, notional: number): number {
    const key = `${symbol}|${side}`;
    const seen = this.consumed.get(key);
    const before = seen && seen.ts === quoteTs ? seen.usdt : 0;
    this.consumed.set(key, { ts: quoteTs, usdt: before + notional });
    return ((before + notional / 2) / this.model.depthUsdt) * this.model.impactPerDepth;
  }

  /** Gives back what a refused order took (it never reached the book). */
  giveBack(symbol: SymbolId, side: 'buy' | 'sell', quoteTs: number, notional: number): void {
    const key = `${symbol}|${side}`;
    const seen = this.consumed.get(key);
    if (seen && seen.ts === quoteTs) seen.usdt = Math.max(0, seen.usdt - notional);
  }
}
