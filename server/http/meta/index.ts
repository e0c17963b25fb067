// What the server is running on, for the client to say on screen: the live venues, or the simulated market and
// which profile of it. Answered from the configuration, so every instance (API-only ones too) gives the same answer.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MetaResponse } from '../../../contract/api';
import { costFloor } from '../../../contract/costs';
import type { MarketInfo } from '../../../contract/entities';
import type { Config } from '../../config';
import { readTradingHalt } from '../../db/repositories/trading-halt';
import type { Db } from '../../db/client';
import { pacedReader } from './calibrated-pace';

/** The market this configuration trades on, as GET /meta and GET /snapshot answer it. */
export function marketInfo(config: Pick<Config, 'market' | 'simProfile' | 'tradeMaxHoldMs' | 'symbols'>): MarketInfo {
  return {
    kind: config.market,
    simProfile: config.market === 'sim' ? config.simProfile : null,
    // What the cockpit needs to draw the engine's limits: the hold limit and the cost floor at the default fee.
    tradeMaxHoldMs: config.tradeMaxHoldMs,
    costFloor: costFloor(),
    symbols: config.symbols,
  };
}

/**
 * The market with its measured pace on the calibrated simulated market (what a new user can expect), as GET /meta and
 * GET /snapshot answer it; the configured market alone elsewhere.
 */
export function marketWithPace(
  config: Pick<Config, 'market' | 'simProfile' | 'tradeMaxHoldMs' | 'symbols'>,
  db: Db,
): () => Promise<MarketInfo> {
  const market = marketInfo(config);
  if (market.kind !== 'sim' || market.simProfile !== 'calibrated') return async () => market;
  const pace = pacedReader(db);
  return async () => ({ ...market, pace: await pace() });
}

export const metaRoutes: FastifyPluginAsyncZod = async (app) => {
  const market = marketWithPace(app.config, app.db);

  app.get(
    '/meta',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['meta'],
        summary:
          'Which market this server trades on (live, or simulated with its profile), and whether an admin halted trading',
      },
    },
    async (): Promise<MetaResponse> => ({ success: true, market: await market(), halt: await readTradingHalt(app.db) }),
  );
};
