import { PAIR_CATALOGUE, pairSpec, type SymbolId } from '../../../contract/pairs';

/** Deriv's crypto underlying for a pair (USD-quoted; we treat USD and USDT as one). */
export const derivUnderlying = (symbol: SymbolId): string => pairSpec(symbol).derivUnderlying;

/** The pair a Deriv underlying stands for, for every pair the product knows (a contract found in a portfolio). */
export const SYMBOL_OF_UNDERLYING: ReadonlyMap<string, SymbolId> = new Map(
  PAIR_CATALOGUE.map((p) => [p.derivUnderlying, p.symbol]),
);
