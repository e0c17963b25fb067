// The pairs this server trades: the SYMBOLS setting, validated at start (server/venues/pair-check.ts on the live
// market, the simulated market's own pairs on the sim one) and set once by the app before anything reads it. One
// list for the process, as the configuration is; every layer that iterates pairs asks here.
import { DEFAULT_SYMBOLS, currenciesOf, inCatalogueOrder, type SymbolId } from '../../contract/pairs';

let enabled: readonly SymbolId[] = DEFAULT_SYMBOLS;

/** The enabled pairs, in the catalogue's order. */
export const enabledSymbols = (): readonly SymbolId[] => enabled;

/** Whether the server trades this pair. */
export const isEnabledSymbol = (symbol: string): symbol is SymbolId => enabled.includes(symbol as SymbolId);

/** USDT and every enabled pair's coin: the currencies a venue account holds for this server. */
export const enabledCurrencies = (): string[] => currenciesOf(enabled);

/** The pairs a user trades: those they picked that the server trades, or all of them when they picked none. */
export const userSymbols = (picked: readonly SymbolId[] | null): SymbolId[] =>
  enabled.filter((s) => picked === null || picked.includes(s));

/** The picked pairs the server does not trade (named in a refusal). */
export const notEnabled = (picked: readonly SymbolId[]): SymbolId[] => picked.filter((s) => !enabled.includes(s));

/** Sets the enabled pairs (from the validated configuration). */
export function enableSymbols(symbols: readonly SymbolId[]): void {
  if (symbols.length === 0) throw new Error('At least one pair must be enabled');
  enabled = inCatalogueOrder(symbols);
}
