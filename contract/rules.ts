// Domain rules both sides apply to the same figures, so a screen and the server never judge one number two ways.

/**
 * A price is profitable when the size of its spread reaches the threshold (a fraction, the user's minSpread or the
 * default). A missing or non-finite spread never is.
 */
export function isProfitable(spread: number | null | undefined, minSpread: number): boolean {
  return spread !== null && spread !== undefined && Number.isFinite(spread) && Math.abs(spread) >= minSpread;
}

/**
 * A price shown on the wire is profitable when its quotes are fresh enough to trade on and its spread reaches the
 * threshold. A stale price (a venue stopped quoting) is never highlighted: nobody can trade it.
 */
export function isPriceProfitable(
  price: { spread: number | null | undefined; stale?: boolean },
  minSpread: number,
): boolean {
  return price.stale !== true && isProfitable(price.spread, minSpread);
}
