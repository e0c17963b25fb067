import { createElement, useState, useSyncExternalStore } from 'react';
import { toast, type ToastItem, type TypeOptions } from 'react-toastify';
import type { Trade } from '../../../contract/entities';
import { tradeLifeOf, type TradeLifeKind } from '../../../contract/trade-life';
import { formatUsd } from '../../lib/format';

// One toast per trade: every message about a trade (the realtime events, the answer to the user's own create or
// close) lands in the same toast, which updates in place through the trade's life instead of stacking a new one.
//
// react-toastify alone does not get this right when toasts queue (more than the container's limit at once) or arrive
// before the container mounts: a queued toast is not "active", so toast.update misses it and a second toast() with
// the same id queues a duplicate. So the text lives here, per trade, and the toast renders whatever is latest: a toast
// raised once shows the trade's newest state whenever it comes on screen, and it is raised again only after it left.
export const tradeToastId = (tradeId: string) => `trade:${tradeId}`;

/** How long a trade's last word stays (spec section 9: toasts close after 5 s). */
const AUTO_CLOSE_MS = 5000;

interface TradeToastState {
  message: string;
  type: TypeOptions;
  /** The trade has ended (closed, failed, cancelled): later words about it in flight (an answer that arrives after the
   * close event) must not take the result's place. */
  final: boolean;
}

/** The toasts raised and not yet gone, by toast id, with what each should say now. */
const raised = new Map<string, TradeToastState>();
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((l) => l());
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

let watching = false;
function watchToasts(): void {
  if (watching) return;
  watching = true;
  toast.onChange((item: ToastItem) => {
    if (typeof item.id !== 'string' || !raised.has(item.id)) return;
    if (item.status === 'removed') raised.delete(item.id);
    // A queued toast comes on screen with the options it was raised with; give it the latest colour and timer.
    else if (item.status === 'added') applyOptions(item.id);
  });
}

function applyOptions(id: string): void {
  const state = raised.get(id);
  if (!state) return;
  // An open trade's toast stays until the trade ends, so the same toast carries the result; the result then stays
  // readable for the full 5 s (an update restarts the timer).
  toast.update(id, { type: state.type, autoClose: state.final ? AUTO_CLOSE_MS : false });
}

/** The container went (it unmounts with its toasts, without telling onChange): every trade's toast is gone with it. */
export function forgetTradeToasts(): void {
  raised.clear();
}

/**
 * The toast's text: the latest state of its trade, whenever it renders. Once the toast is removed its state is gone
 * while it still animates out (and renders again): it keeps what it last said, never the words it was raised with (a
 * closed trade's toast said "Open" as it left).
 */
function TradeToastText({ id, initial }: { id: string; initial: string }) {
  const latest = useSyncExternalStore(subscribe, () => raised.get(id)?.message);
  const [lastSaid, setLastSaid] = useState(initial);
  if (latest !== undefined && latest !== lastSaid) setLastSaid(latest);
  return latest ?? lastSaid;
}

export function showTradeToast(
  tradeId: string,
  message: string,
  type: TypeOptions,
  options: { final?: boolean } = {},
): void {
  watchToasts();
  const id = tradeToastId(tradeId);
  const final = options.final ?? false;
  const before = raised.get(id);
  if (before?.final && !final) return;
  raised.set(id, { message, type, final });
  if (before) {
    changed();
    if (toast.isActive(id)) applyOptions(id);
    return;
  }
  toast(createElement(TradeToastText, { id, initial: message }), {
    toastId: id,
    type,
    autoClose: final ? AUTO_CLOSE_MS : false,
  });
}

/**
 * What a trade's toast says, in the contract's words (contract/trade-life.ts): 'Trade BTC/USDT: Open', then 'Trade
 * BTC/USDT: Closed — converged · $0.50' or '… Closed — flattened · −$0.65': a trade that closed ends with its realised
 * P&L (also when it is $0.00), a failed one with what its unwind cost, if anything.
 */
export function tradeToastText(trade: Pick<Trade, 'symbol' | 'status' | 'reason' | 'legs' | 'actualProfit'>): {
  text: string;
  kind: TradeLifeKind;
} {
  const life = tradeLifeOf(trade);
  const withResult = life.kind === 'closed' || (life.kind === 'failed' && trade.actualProfit !== 0);
  const result = withResult ? ` · ${formatUsd(trade.actualProfit)}` : '';
  return { text: `Trade ${trade.symbol}: ${life.label}${result}`, kind: life.kind };
}
