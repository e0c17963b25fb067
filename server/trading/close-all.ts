// "Turn the user's trading off and close every open trade", once, for the user's Stop & flatten and for an admin
// closing an account's trades. Both the switch and the request are saved first, so whichever instance leads the
// engine (now, or after a restart or failover) carries them out even when this instance does not trade; when it does,
// the trades are closed here and waited for.
import type { Trade } from '../../contract/entities';
import type { Db } from '../db/client';
import { flattenDone, requestFlatten } from '../db/repositories/flatten-requests';
import { turnTradingOff } from '../db/repositories/trading-state';
import { getTrade, listTrades } from '../db/repositories/trades';
import type { TradingEngine } from './engine-port';

/** More open trades than a user can have (one per symbol, plus any being recovered). */
const OPEN_LIMIT = 100;

export interface CloseAllRequest {
  userId: string;
  /** How the stop is recorded with the user. */
  stop: 'flattened' | 'admin';
  /** Each closed trade's reason. */
  reason: string;
  /** How long to wait for the trades to end before answering (they keep closing afterwards). */
  waitMs: number;
}

export type CloseAllOutcome =
  /** This instance does not trade (API-only or standing by): the engine instance closes them within seconds. */
  | { handedOff: true; open: Trade[] }
  /** Closed here: each trade as it is now; those still pending keep closing. */
  | { handedOff: false; open: Trade[]; trades: Trade[]; closed: number; stillClosing: number };

export async function closeAllTrades(
  deps: { db: Db; engine: TradingEngine | null },
  request: CloseAllRequest,
): Promise<CloseAllOutcome> {
  const { db, engine } = deps;
  const { userId, reason } = request;
  await turnTradingOff(db, userId, request.stop, reason);
  await requestFlatten(db, userId, reason);
  const open = (await listTrades(db, userId, { status: 'pending', page: 1, limit: OPEN_LIMIT })).trades;
  const result = engine ? await engine.closeUserTrades(userId, reason, request.waitMs) : null;
  if (!result || 'ok' in result) return { handedOff: true, open };
  await flattenDone(db, userId);
  const trades = (await Promise.all(open.map((t) => getTrade(db, userId, t._id)))).filter(
    (t): t is Trade => t !== null,
  );
  const stillClosing = trades.filter((t) => t.status === 'pending').length;
  return { handedOff: false, open, trades, closed: trades.length - stillClosing, stillClosing };
}
