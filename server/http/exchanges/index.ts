// Prices (live, and their recorded history in ./spreads), venue connection checks and balance sync. Joining or leaving automated trading is in ../trading.
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PricesQuery,
  TestConnectionBody,
  type BalancesResponse,
  type PricesResponse,
  type TestConnectionResponse,
} from '../../../contract/api';
import { VENUE_NAMES, VENUES, type VenueId } from '../../../contract/domain';
import type { Balances } from '../../../contract/entities';
import { ensurePaperBalances, getBalances, setVenueBalances } from '../../db/repositories/balances';
import { derivLinkOf, findCredentials } from '../../db/repositories/credentials';
import { findMinSpread } from '../../db/repositories/users';
import { userBalances } from '../../engine/figures';
import { VenueError, type VenueAccount } from '../../venues/types';
import { API_ONLY_MESSAGE } from '../plugins/engine-port';
import { HttpError, badRequest } from '../plugins/http-error';
import { simulatedTestMessage } from './simulated-test';
import { spreadRoutes } from './spreads';

/** A venue's refusal as a 4xx the user can act on; an unreachable venue as 503. */
function venueHttpError(error: unknown, exchange: VenueId): HttpError {
  if (error instanceof VenueError) {
    if (error.kind === 'unavailable' || error.kind === 'unknown-outcome')
      return new HttpError(503, `${exchange} is not reachable right now: ${error.message}`);
    if (error.kind === 'rate-limit')
      return new HttpError(429, `${exchange} is rate-limiting requests; try again shortly`);
    // A refusal already worded for the trader ("Deriv refused the token: …") is passed on as it is.
    return badRequest(
      error.message.startsWith(VENUE_NAMES[exchange]) ? error.message : `${exchange}: ${error.message}`,
    );
  }
  return new HttpError(503, `${exchange} could not be reached`);
}

async function balanceAnswer(app: FastifyInstance, userId: string): Promise<Balances> {
  return userBalances(app.db, userId, await getBalances(app.db, userId), app.priceBook);
}

export const exchangeRoutes: FastifyPluginAsyncZod = async (app) => {
  const live = app.config.market === 'live';
  await app.register(spreadRoutes);

  app.get(
    '/exchanges/prices',
    {
      preHandler: app.authenticate,
      schema: { tags: ['exchanges'], summary: 'Latest mid prices and spread per symbol', querystring: PricesQuery },
    },
    async (request): Promise<PricesResponse> => {
      if (!app.engine) throw new HttpError(503, API_ONLY_MESSAGE);
      const minSpread = await findMinSpread(app.db, request.user.id);
      return { success: true, prices: app.engine.prices(minSpread, request.query.symbol) };
    },
  );

  app.post(
    '/exchanges/test-connection',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['exchanges'],
        summary: 'Checks credentials with a venue (given ones, else the saved ones)',
        body: TestConnectionBody,
      },
    },
    async (request): Promise<TestConnectionResponse> => {
      const { exchange, apiKey, secretKey, token, appId } = request.body;
      const saved = await app.loadVenueAccount(request.user.id);
      if (!live) return { success: true, exchange, message: simulatedTestMessage(exchange, request.body, saved) };
      // Deriv, saved credentials: what Deriv says about them (API, accounts) is written down for Settings and trading.
      const savedDeriv = exchange === 'deriv' && !token && !appId;
      const account: VenueAccount =
        exchange === 'binance'
          ? {
              userId: request.user.id,
              credentials: {
                binanceApiKey: apiKey || saved.credentials.binanceApiKey,
                binanceSecretKey: secretKey || saved.credentials.binanceSecretKey,
              },
            }
          : savedDeriv
            ? {
                userId: request.user.id,
                credentials: {
                  derivToken: saved.credentials.derivToken,
                  derivAppId: saved.credentials.derivAppId,
                  derivAccountId: saved.credentials.derivAccountId,
                },
                remember: saved.remember,
              }
            : {
                userId: request.user.id,
                credentials: {
                  derivToken: token || saved.credentials.derivToken,
                  derivAppId: appId || saved.credentials.derivAppId,
                },
              };
      if (exchange === 'binance' && (!account.credentials.binanceApiKey || !account.credentials.binanceSecretKey)) {
        throw badRequest('Enter or save your Binance API key and secret first');
      }
      if (exchange === 'deriv' && !account.credentials.derivToken)
        throw badRequest('Enter or save your Deriv token first');
      if (!app.engine) throw new HttpError(503, API_ONLY_MESSAGE);
      try {
        const summary = await app.engine.venues[exchange].testConnection(account);
        if (exchange === 'binance')
          return { success: true, exchange, message: `${exchange} connection successful: ${summary}` };
        const deriv = savedDeriv ? derivLinkOf(await findCredentials(app.db, request.user.id)) : undefined;
        return { success: true, exchange, message: summary, ...(deriv && { deriv }) };
      } catch (error) {
        throw venueHttpError(error, exchange);
      }
    },
  );

  app.post(
    '/exchanges/sync',
    {
      preHandler: app.authenticate,
      schema: { tags: ['exchanges'], summary: "Refreshes the caller's balances from the venues" },
    },
    async (request): Promise<BalancesResponse> => {
      const userId = request.user.id;
      if (!live) {
        // The simulated venues' paper book is the balances table itself: make sure the seed is there, then read.
        await ensurePaperBalances(app.db, userId);
        return { success: true, balance: await balanceAnswer(app, userId) };
      }
      if (!app.engine) throw new HttpError(503, API_ONLY_MESSAGE);
      const account = await app.loadVenueAccount(userId);
      for (const venue of VENUES) {
        try {
          await setVenueBalances(app.db, userId, venue, await app.engine.venues[venue].balances(account));
        } catch (error) {
          throw venueHttpError(error, venue);
        }
      }
      return { success: true, balance: await balanceAnswer(app, userId) };
    },
  );
};
