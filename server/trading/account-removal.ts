// Before an admin deactivates or deletes an account, nothing of it may stay open on a venue: positions must never be
// left without an owner. Refused while trades are open, unless the admin asks to close them: then the account's
// trading is turned off and its trades closed through the same path as Stop & flatten (close-all.ts), and the removal
// goes ahead once they are closed. On an instance that does not run the engine the close is handed to the engine
// instance, and the admin is asked to try again in a moment, as when the trades take longer than the wait.
import type { Db } from '../db/client';
import { turnTradingOff } from '../db/repositories/trading-state';
import { countOpenTrades } from '../db/repositories/users';
import type { TradingControl } from './control';

export type RemovalAction = 'delete' | 'deactivate';

/** How long a request with closeTrades=true waits for the engine to close the user's trades. */
export const CLOSE_WAIT_MS = 10_000;

const trades = (n: number) => `${n} open trade${n === 1 ? '' : 's'}`;

export const openTradesMessage = (n: number, action: RemovalAction) =>
  `This user has ${trades(n)}. ${n === 1 ? 'It' : 'They'} must be closed before the account can be ${action}d: ${action} with closeTrades=true to close ${n === 1 ? 'it' : 'them'} now.`;

export const closingMessage = (n: number, action: RemovalAction) =>
  `Closing ${trades(n)} of this user; ${action} again in a moment, once ${n === 1 ? 'it is' : 'they are'} closed.`;

export const closedNote = (n: number) => (n > 0 ? ` (${trades(n)} closed first)` : '');

export type SettleResult = { ok: true; closed: number } | { ok: false; message: string };

/** Clears the way for removing the account: how many trades were closed, or why it must wait (a 409). */
export async function settleOpenTrades(
  deps: { db: Db; trading: TradingControl },
  userId: string,
  closeTrades: boolean,
  action: RemovalAction,
): Promise<SettleResult> {
  const open = await countOpenTrades(deps.db, userId);
  if (open === 0) return { ok: true, closed: 0 };
  if (!closeTrades) return { ok: false, message: openTradesMessage(open, action) };
  const outcome = await deps.trading.closeForAdmin(userId, `account ${action}d by an admin`, CLOSE_WAIT_MS);
  if (outcome.handedOff || outcome.stillClosing > 0) return { ok: false, message: closingMessage(open, action) };
  return { ok: true, closed: open };
}

/**
 * A deactivated account does not trade (the engine reads only active users), so its switch is turned off with it,
 * inside the admin's transaction; reactivating it leaves trading off until the user turns it on.
 */
export async function stopForDeactivation(tx: Db, userId: string): Promise<void> {
  await turnTradingOff(tx, userId, 'admin', 'account deactivated by an admin');
}
