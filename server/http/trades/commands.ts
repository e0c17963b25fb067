// Trade commands: a manual trade through the engine (same path and limits as automated ones) and a user's cancel.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CreateTradeBody, IdParams, TradeStatusBody, type TradeResponse } from '../../../contract/api';
import { getTrade } from '../../db/repositories/trades';
import { HttpError, badRequest, notFound } from '../plugins/http-error';
import { API_ONLY_MESSAGE } from '../plugins/engine-port';
import { audit } from '../../audit/audit';
import { enabledSymbols, isEnabledSymbol } from '../../venues/enabled-pairs';

export const ONLY_CANCEL_MESSAGE = 'Only an open trade can be cancelled; other statuses are set by the engine';

export const tradeCommandRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/trades',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['trades'],
        summary: 'Asks the engine for a manual trade of a notional on a symbol',
        body: CreateTradeBody,
      },
    },
    async (request, reply): Promise<TradeResponse> => {
      if (!app.engine) throw new HttpError(503, API_ONLY_MESSAGE);
      const { symbol, totalAmount } = request.body;
      if (!isEnabledSymbol(symbol))
        throw badRequest(`This server does not trade ${symbol}; pick one of ${enabledSymbols().join(', ')}`);
      const result = await app.engine.createManualTrade(request.user.id, symbol, totalAmount);
      await audit(app, request, 'manual_trade', {
        details: result.ok
          ? { symbol, totalAmount, tradeId: result.trade.tradeId }
          : { symbol, totalAmount, refused: result.message },
      });
      if (!result.ok) throw new HttpError(result.status, result.message);
      reply.code(201);
      return { success: true, trade: result.trade, message: 'Trade created' };
    },
  );

  app.put(
    '/trades/:id/status',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['trades'],
        summary: "Cancels one of the caller's open trades (closes its legs)",
        params: IdParams,
        body: TradeStatusBody,
      },
    },
    async (request): Promise<TradeResponse> => {
      const trade = await getTrade(app.db, request.user.id, request.params.id);
      if (!trade) throw notFound('Trade not found');
      if (request.body.status !== 'cancelled' || trade.status !== 'pending') throw badRequest(ONLY_CANCEL_MESSAGE);
      if (!app.engine) throw new HttpError(503, API_ONLY_MESSAGE);
      const result = await app.engine.cancelTrade(request.user.id, trade._id);
      await audit(app, request, 'trade_cancelled', {
        details: { tradeId: trade.tradeId, ...(!result.ok && { refused: result.message }) },
      });
      if (!result.ok) throw new HttpError(result.status, result.message);
      return { success: true, trade: result.trade, message: 'Cancelling: closing both legs' };
    },
  );
};
