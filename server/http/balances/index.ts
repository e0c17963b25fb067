// The caller's holdings on both venues, with the figures the Balances screen shows beside them.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BalancesResponse, StatsResponse } from '../../../contract/api';
import { ensurePaperBalances, getBalances, type UserBalances } from '../../db/repositories/balances';
import type { Db } from '../../db/client';
import { userBalances, userStats } from '../../engine/figures';

/** In the simulated market a user's first read hands out the paper seed; live balances come only from a sync. */
export async function readBalances(db: Db, userId: string, simulated: boolean): Promise<UserBalances> {
  const current = await getBalances(db, userId);
  if (current.updatedAt !== null || !simulated) return current;
  await ensurePaperBalances(db, userId);
  return getBalances(db, userId);
}

export const balanceRoutes: FastifyPluginAsyncZod = async (app) => {
  const simulated = app.config.market === 'sim';

  app.get(
    '/balances',
    {
      preHandler: app.authenticate,
      schema: { tags: ['balances'], summary: "The caller's balances per venue and trading figures" },
    },
    async (request): Promise<BalancesResponse> => {
      const userId = request.user.id;
      const current = await readBalances(app.db, userId, simulated);
      return { success: true, balance: await userBalances(app.db, userId, current, app.priceBook) };
    },
  );

  app.get(
    '/balances/stats/portfolio',
    {
      preHandler: app.authenticate,
      schema: { tags: ['balances'], summary: "The caller's portfolio statistics" },
    },
    async (request): Promise<StatsResponse> => {
      if (simulated) await readBalances(app.db, request.user.id, simulated);
      return { success: true, stats: await userStats(app.db, request.user.id, app.priceBook) };
    },
  );
};
