import type { SymbolId } from '../../../contract/domain';

/** Deriv's crypto underlyings for our symbols (USD-quoted; we treat USD and USDT as one). */
export const DERIV_SYMBOLS: Record<SymbolId, string> = { 'BTC/USDT': 'cryBTCUSD', 'ETH/USDT': 'cryETHUSD' };
