// Joining or leaving automated trading (spec section 7, /exchanges/trading/*), through the trading-state owner
// (server/trading): saved first, so an API-only instance still switches trading for the engine instance, which reads
// it within seconds; on the live market trading is not switched on without the venue keys.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TradingMembershipResponse } from '../../../contract/api';
import { badRequest, notFound } from '../plugins/http-error';
import { audit } from '../../audit/audit';

export const tradingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/exchanges/trading/add-user',
    {
      preHandler: app.authenticate,
      schema: { tags: ['exchanges'], summary: 'Starts automated trading for the caller within their limits' },
    },
    async (request): Promise<TradingMembershipResponse> => {
      const enabled = await app.trading.enable(request.user.id);
      if (!enabled.ok) throw enabled.reason === 'not-found' ? notFound(enabled.message) : badRequest(enabled.message);
      await audit(app, request, 'trading_started');
      return { success: true, tradingEnabled: true, message: 'You are now trading automatically within your limits' };
    },
  );

  app.post(
    '/exchanges/trading/remove-user',
    {
      preHandler: app.authenticate,
      schema: { tags: ['exchanges'], summary: 'Stops automated trading for the caller; open trades close normally' },
    },
    async (request): Promise<TradingMembershipResponse> => {
      await app.trading.disable(request.user.id);
      await audit(app, request, 'trading_stopped');
      return { success: true, tradingEnabled: false, message: 'Automated trading stopped; open trades close normally' };
    },
  );
};
