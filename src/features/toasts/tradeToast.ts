import { toast, type TypeOptions } from 'react-toastify';

// One toast per trade: every message about a trade (the realtime events, the answer to the user's own create or
// cancel) lands in the same toast, which updates in place through the trade's life instead of stacking a new one.
export const tradeToastId = (tradeId: string) => `trade:${tradeId}`;

export function showTradeToast(tradeId: string, message: string, type: TypeOptions): void {
  const id = tradeToastId(tradeId);
  // The update restarts the auto-close timer, so the latest state stays readable for the full 5 s.
  if (toast.isActive(id)) toast.update(id, { render: message, type, autoClose: 5000 });
  else toast(message, { toastId: id, type });
}
