// maxLoss is a drawdown (DESIGN.md section 6): trading stops when the realised P&L since trading was last enabled
// falls maxLoss below its highest point. The running figure is folded from the finished trades in the order they
// closed; the database computes the same fold in SQL (server/db/repositories/users.ts, realisedWindow).
import { Money, money } from './decimal';

/** Realised P&L of the finished trades since trading was enabled, and the highest it has been (at least 0). */
export interface RealisedWindow {
  current: Money;
  peak: Money;
}

export const EMPTY_WINDOW: RealisedWindow = { current: money(0), peak: money(0) };

/** The window after one more finished trade. */
export function foldRealised(window: RealisedWindow, profit: Money): RealisedWindow {
  const current = window.current.plus(profit);
  return { current, peak: Money.max(window.peak, current) };
}

export const drawdownOf = (window: RealisedWindow): Money => window.peak.minus(window.current);

/** The limit is reached once something was lost and the drawdown is at least maxLoss. */
export function maxLossReached(window: RealisedWindow, maxLoss: Money): boolean {
  const drawdown = drawdownOf(window);
  return drawdown.gt(0) && drawdown.gte(maxLoss);
}

/** How the reason stored with a halt begins, in the trader's words (the stop's kind is stored beside it). */
export const MAX_LOSS_REASON = 'Max loss reached';

export function haltReason(window: RealisedWindow, maxLoss: Money): string {
  return `${MAX_LOSS_REASON}: your realised P&L since you enabled trading is ${drawdownOf(window).toFixed(2)} USDT below its peak of ${window.peak.toFixed(2)} USDT (max loss ${maxLoss.toFixed()} USDT)`;
}
