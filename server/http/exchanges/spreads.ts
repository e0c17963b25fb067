// The recorded spread history of a symbol, at a resolution chosen from the range. Answered from the database, so an
// API-only instance serves it as well as the engine's.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SpreadsQuery, type SpreadsResponse } from '../../../contract/api';
import { spreadResolutionSeconds } from '../../../contract/spreads';
import { readSpreadSeries } from '../../db/repositories/spread-history';

export const spreadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/exchanges/spreads',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['exchanges'],
        summary:
          "A symbol's recorded venue prices and spread over [from, to): one-second samples for short ranges, averaged buckets for long ones",
        querystring: SpreadsQuery,
      },
    },
    async (request): Promise<SpreadsResponse> => {
      const { symbol } = request.query;
      const from = new Date(request.query.from);
      const to = new Date(request.query.to);
      const resolutionSeconds = spreadResolutionSeconds(from.getTime(), to.getTime(), Date.now());
      const points = await readSpreadSeries(app.db, symbol, from, to, resolutionSeconds);
      return {
        success: true,
        series: { symbol, from: from.toISOString(), to: to.toISOString(), resolutionSeconds, points },
      };
    },
  );
};
