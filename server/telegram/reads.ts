// What /status and /positions read: the engine state from the stored stop kind, the global halt, open trades marked
// at the engine's current prices, today's realised P&L (since midnight in the user's zone) and the net total.
import type { FastifyInstance } from 'fastify';
import type { Prices, Trade } from '../../contract/entities';
import { isTradingHalted } from '../db/repositories/trading-halt';
import { realisedSince } from '../db/repositories/telegram';
import { listTrades } from '../db/repositories/trades';
import type { UserRow } from '../db/schema';
import { userStats } from '../engine/figures';
import { userRisk } from '../engine/risk';
import { startOfDay, type Reader } from './format';
import { positionsText, statusText } from './views';

async function openTrades(app: FastifyInstance, userId: string): Promise<Trade[]> {
  return (await listTrades(app.db, userId, { status: 'pending', page: 1, limit: 50 })).trades;
}

/** The engine's prices where it runs here; none on an API-only instance (marks then show as unknown). */
const pricesFor = (app: FastifyInstance, user: UserRow): Prices => app.engine?.prices(Number(user.minSpread)) ?? {};

export async function readStatus(app: FastifyInstance, user: UserRow, reader: Reader): Promise<string> {
  const [risk, globalHalt, open, stats, today] = await Promise.all([
    userRisk(app.db, user.id),
    isTradingHalted(app.db),
    openTrades(app, user.id),
    userStats(app.db, user.id, app.priceBook),
    realisedSince(app.db, user.id, startOfDay(reader.timeZone)),
  ]);
  if (!risk) return 'This account can no longer be used.';
  return statusText(reader, {
    risk,
    globalHalt,
    open,
    prices: pricesFor(app, user),
    todayPnl: Number(today),
    totalPnl: stats.netProfit,
  });
}

export async function readPositions(app: FastifyInstance, user: UserRow, reader: Reader): Promise<string> {
  return positionsText(reader, await openTrades(app, user.id), pricesFor(app, user));
}
