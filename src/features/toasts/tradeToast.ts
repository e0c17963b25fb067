import { toast, type TypeOptions } from 'react-toastify';
import type { Trade } from '../../../contract/entities';
import { tradeLifeOf, type TradeLifeKind } from '../../../contract/trade-life';
import { formatUsd } from '../../lib/format';

// One toast per trade: every message about a trade (the realtime events, the answer to the user's own create or
// cancel) lands in the same toast, which updates in place through the trade's life instead of stacking a new one.
export const tradeToastId = (tradeId: string) => `trade:${tradeId}`;

export function showTradeToast(tradeId: string, message: string, type: TypeOptions): void {
  const id = tradeToastId(tradeId);
  // The update restarts the auto-close timer, so the latest state stays readable for the full 5 s.
  if (toast.isActive(id)) toast.update(id, { render: message, type, autoClose: 5000 });
  else toast(message, { toastId: id, type });
}

/**
 * What a trade's toast says, in the contract's words (contract/trade-life.ts): 'Trade BTC/USDT: Open', 'Trade BTC/USDT:
 * Closed — flattened · −$0.65'; a realised result beside every finished trade that moved money.
 */
export function tradeToastText(trade: Pick<Trade, 'symbol' | 'status' | 'reason' | 'legs' | 'actualProfit'>): {
  text: string;
  kind: TradeLifeKind;
} {
  const life = tradeLifeOf(trade);
  const result = life.kind === 'open' || trade.actualProfit === 0 ? '' : ` · ${formatUsd(trade.actualProfit)}`;
  return { text: `Trade ${trade.symbol}: ${life.label}${result}`, kind: life.kind };
}
