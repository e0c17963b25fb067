// Reads of the caller's trades: the history page by page, the changes since a cursor, one trade, the trading statistics and the risk figures.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  IdParams,
  TradeChangesQuery,
  TradesQuery,
  type TradeChangesResponse,
  type RiskResponse,
  type StatsResponse,
  type TradeResponse,
  type TradesResponse,
} from '../../../contract/api';
import { getTrade, listTrades } from '../../db/repositories/trades';
import { listTradeChanges } from '../../db/repositories/trade-changes';
import { userStats } from '../../engine/figures';
import { userRisk } from '../../engine/risk';
import { notFound } from '../plugins/http-error';

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
    '/trades/changes',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['trades'],
        summary: "The caller's trades changed since a cursor, oldest change first: the history sync's feed",
        querystring: TradeChangesQuery,
      },
    },
    async (request): Promise<TradeChangesResponse> => {
      const page = await listTradeChanges(app.db, request.user.id, {
        after: request.query.after,
        limit: request.query.limit,
      });
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

  app.get(
    '/trades/stats/risk',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['trades'],
        summary: "The caller's risk figures: engine state, maxLoss drawdown, exposure against maxExposure",
      },
    },
    async (request): Promise<RiskResponse> => {
      const risk = await userRisk(app.db, request.user.id);
      if (!risk) throw notFound('User not found');
      return { success: true, risk };
    },
  );

  app.get(
    '/trades/:id',
    {
      preHandler: app.authenticate,
      schema: { tags: ['trades'], summary: "One of the caller's trades, with its legs and fills", params: IdParams },
    },
    async (request): Promise<TradeResponse> => {
      // Scoped by the caller: another user's trade is 'not found', so nobody learns that it exists.
      const trade = await getTrade(app.db, request.user.id, request.params.id);
      if (!trade) throw notFound('Trade not found');
      return { success: true, trade };
    },
  );
};
