// GET /snapshot: one answer for a signed-in client's first paint (the layout and the Dashboard), instead of a call per
// figure. Every figure comes from the function its own endpoint uses, so the two can never disagree; the client's
// services take their first values from it and keep them live with the socket's events.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SNAPSHOT_RECENT_LIMIT, type SnapshotResponse } from '../../../contract/api';
import { listTrades } from '../../db/repositories/trades';
import { findMinSpread, findUserById } from '../../db/repositories/users';
import { userBalances, userStats } from '../../engine/figures';
import { userRisk } from '../../engine/risk';
import { readBalances } from '../balances';
import { marketWithPace } from '../meta';
import { readTradingHalt } from '../../db/repositories/trading-halt';
import { notFound } from '../plugins/http-error';
import { twoFactorStatus } from '../two-factor';
import { loadPublicUser } from '../users/load-public-user';
import { SnapshotAnswer } from './schema';

export const snapshotRoutes: FastifyPluginAsyncZod = async (app) => {
  const market = marketWithPace(app.config, app.db);
  const simulated = app.config.market === 'sim';

  app.get(
    '/snapshot',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['meta'],
        summary:
          "A signed-in client's first paint in one answer: profile, market and halt, prices, balances, statistics, recent trades, risk, two-factor status, recent opportunity outcomes",
        response: { 200: SnapshotAnswer },
      },
    },
    async (request): Promise<SnapshotResponse> => {
      const { id: userId } = request.user;
      const row = await findUserById(app.db, userId);
      if (!row) throw notFound('User not found');
      // Balances first: in the simulated market the first read hands out the paper seed that the stats then value.
      const current = await readBalances(app.db, userId, simulated);
      const [user, marketNow, halt, minSpread, balance, stats, page, risk, twoFactor] = await Promise.all([
        loadPublicUser(app.db, row),
        market(),
        readTradingHalt(app.db),
        findMinSpread(app.db, userId),
        userBalances(app.db, userId, current, app.priceBook),
        userStats(app.db, userId, app.priceBook),
        listTrades(app.db, userId, { page: 1, limit: SNAPSHOT_RECENT_LIMIT }),
        userRisk(app.db, userId),
        twoFactorStatus(app.db, request.user, app.config.adminRequire2fa),
      ]);
      if (!risk) throw notFound('User not found');
      return {
        success: true,
        user,
        market: marketNow,
        halt,
        prices: app.engine ? app.engine.prices(minSpread) : null,
        venues: app.engine ? app.engine.venueHealth() : null,
        balance,
        stats,
        recent: { trades: page.trades, pagination: page.pagination },
        risk,
        twoFactor,
        outcomes: app.engine ? app.engine.recentOutcomes(userId) : [],
      };
    },
  );
};
