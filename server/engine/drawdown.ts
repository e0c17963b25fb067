// maxLoss is a drawdown (DESIGN.md section 6): trading stops when the realised P&L since trading was last enabled
// falls maxLoss below its highest point. The running figure is folded from the finished trades in the order they
// closed; the database computes the same fold in SQL (server/db/repositories/users.ts, realisedWindow). The fold and
// the drawdown are contract/figures.ts's, in exact Money.
import {
  drawdownIn,
  emptyWindow,
  foldRealised as foldIn,
  type Arithmetic,
  type RealisedWindow as Window,
} from '../../contract/figures';
import { Money, money } from './decimal';

/** The contract's figures in Money: never add money as binary floats. */
export const MONEY: Arithmetic<Money> = {
  zero: money(0),
  plus: (a, b) => a.plus(b),
  minus: (a, b) => a.minus(b),
  max: (a, b) => Money.max(a, b),
};

/** Realised P&L of the finished trades since trading was enabled, and the highest it has been (at least 0). */
export type RealisedWindow = Window<Money>;

export const EMPTY_WINDOW: RealisedWindow = emptyWindow(MONEY);

/** The window after one more finished trade. */
export const foldRealised = (window: RealisedWindow, profit: Money): RealisedWindow => foldIn(MONEY, window, profit);

export const drawdownOf = (window: RealisedWindow): Money => drawdownIn(MONEY, window);

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
