// Joining or leaving automated trading (spec section 7, /exchanges/trading/*). The choice is saved first, so an
// API-only instance (no engine here) still switches trading for the engine instance, which reads it within seconds.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TradingMembershipResponse } from '../../../contract/api';
import { findCredentials } from '../../db/repositories/credentials';
import { setTradingEnabled } from '../../db/repositories/users';
import { badRequest } from '../plugins/http-error';
import { audit } from '../../audit/audit';

export const TRADING_KEYS_MISSING = 'Save your Binance API key and secret and your Deriv token before enabling trading';

export const tradingRoutes: FastifyPluginAsyncZod = async (app) => {
  const live = app.config.market === 'live';

  app.post(
    '/exchanges/trading/add-user',
    {
      preHandler: app.authenticate,
      schema: { tags: ['exchanges'], summary: 'Starts automated trading for the caller within their limits' },
    },
    async (request): Promise<TradingMembershipResponse> => {
      const userId = request.user.id;
      if (live) {
        const creds = await findCredentials(app.db, userId);
        if (!creds?.binanceApiKeyEnc || !creds.binanceSecretKeyEnc || !creds.derivTokenEnc)
          throw badRequest(TRADING_KEYS_MISSING);
      }
      await setTradingEnabled(app.db, userId, true);
      await app.engine?.addUser(userId);
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
      const userId = request.user.id;
      await setTradingEnabled(app.db, userId, false);
      await app.engine?.removeUser(userId);
      await audit(app, request, 'trading_stopped');
      return { success: true, tradingEnabled: false, message: 'Automated trading stopped; open trades close normally' };
    },
  );
};
