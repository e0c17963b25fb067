// The pairs, as an admin sees them (GET /admin/pairs): every pair the product knows, whether each venue offers it
// now (the same check the start runs, server/venues/pair-check.ts) and whether SYMBOLS enables it here.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AdminPairsResponse } from '../../../contract/api';
import { MARKET_KINDS } from '../../../contract/domain';
import { PAIR_CATALOGUE } from '../../../contract/pairs';
import { Kept } from '../../venues/kept';
import { isEnabledSymbol } from '../../venues/enabled-pairs';
import { offeredPairs, type PairOffer } from '../../venues/pair-check';

/** The venues' offer changes by the day; asking them (a dozen contracts_for) once in a while is enough. */
const OFFER_REUSE_MS = 10 * 60_000;

const AdminPairsAnswer = z.object({
  success: z.literal(true),
  market: z.enum(MARKET_KINDS),
  pairs: z.array(
    z.object({
      symbol: z.templateLiteral([z.string(), '/USDT']),
      name: z.string(),
      binance: z.boolean(),
      deriv: z.boolean(),
      enabled: z.boolean(),
    }),
  ),
  message: z.string().optional(),
}) satisfies z.ZodType<AdminPairsResponse>;

export const adminPairRoutes: FastifyPluginAsyncZod = async (app) => {
  const offers = new Kept<PairOffer[]>(OFFER_REUSE_MS);
  const known = PAIR_CATALOGUE.map((p) => p.symbol);

  app.get(
    '/admin/pairs',
    {
      preHandler: [app.authenticate, app.requireAdmin],
      schema: {
        tags: ['admin'],
        summary: 'Every pair the product knows: offered by each venue, and enabled on this server (SYMBOLS)',
        response: { 200: AdminPairsAnswer },
      },
    },
    async (): Promise<AdminPairsResponse> => {
      let offered: PairOffer[] | null = null;
      let message: string | undefined;
      try {
        offered = await offers.get('all', () => offeredPairs(app.config, known));
      } catch (error) {
        message = `The venues could not be asked just now: ${error instanceof Error ? error.message : String(error)}`;
      }
      return {
        success: true,
        market: app.config.market,
        pairs: PAIR_CATALOGUE.map((p) => {
          const offer = offered?.find((o) => o.symbol === p.symbol);
          return {
            symbol: p.symbol,
            name: p.name,
            binance: offer?.binance ?? false,
            deriv: offer?.deriv ?? false,
            enabled: isEnabledSymbol(p.symbol),
          };
        }),
        ...(message && { message }),
      };
    },
  );
};
