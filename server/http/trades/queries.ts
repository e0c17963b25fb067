// Reads of the caller's trades: the history page by page and the trading statistics.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { TradesQuery, type StatsResponse, type TradesResponse } from '../../../contract/api';
import { listTrades } from '../../db/repositories/trades';
import { userStats } from '../../engine/figures';

export const tradeQueryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/trades',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['trades'],
        summary: "The caller's trades, newest first, filtered by status and/or symbol",
        querystring: TradesQuery,
      },
    },
    async (request): Promise<TradesResponse> => {
      const page = await listTrades(app.db, request.user.id, request.query);
      return { success: true, ...page };
    },
  );

  app.get(
    '/trades/stats/summary',
    {
      preHandler: app.authenticate,
      schema: { tags: ['trades'], summary: "The caller's trading statistics" },
    },
    async (request): Promise<StatsResponse> => ({
      success: true,
      stats: await userStats(app.db, request.user.id, app.priceBook),
    }),
  );
};
