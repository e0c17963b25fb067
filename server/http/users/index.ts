// A user's own trading settings and venue keys (spec section 7, PUT /users/:id and /users/:id/api-keys).
// Only the owner writes them: even an admin gets 403 for someone else's id.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiKeysBody, IdParams, TradingSettingsBody } from '../../../contract/api';
import type { UserResponse } from '../../../contract/api';
import { findCredentials, saveCredentials } from '../../db/repositories/credentials';
import { findUserById } from '../../db/repositories/users';
import { badRequest, forbidden, notFound } from '../plugins/http-error';
import { derivChoiceRefusal } from './deriv-choice';
import { exposureFunding } from './funding';
import { loadPublicUser } from './load-public-user';
import { UserAnswer } from '../plugins/response-schemas';
import { audit } from '../../audit/audit';
import { inCatalogueOrder } from '../../../contract/pairs';
import { enabledSymbols, notEnabled } from '../../venues/enabled-pairs';

export const NOT_OWNER = 'You can only change your own settings';

// Any id but the caller's is answered alike, existing or not: the answer must not tell which ids are accounts.
async function assertOwner(_app: FastifyInstance, request: FastifyRequest, id: string): Promise<void> {
  if (request.user.id !== id) throw forbidden(NOT_OWNER);
}

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/users/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Save own trading settings (minSpread is a fraction)',
        params: IdParams,
        body: TradingSettingsBody,
        response: { 200: UserAnswer },
      },
    },
    async (request): Promise<UserResponse> => {
      const { id } = request.params;
      await assertOwner(app, request, id);
      const body = request.body;
      const limits = {
        ...(body.maxExposure !== undefined && { maxExposure: String(body.maxExposure) }),
        ...(body.minSpread !== undefined && { minSpread: String(body.minSpread) }),
        ...(body.maxLoss !== undefined && { maxLoss: String(body.maxLoss) }),
        ...(body.symbols !== undefined && { symbols: inCatalogueOrder(body.symbols) }),
      };
      const unknown = notEnabled(body.symbols ?? []);
      if (unknown.length > 0)
        throw badRequest(`This server does not trade ${unknown.join(', ')}; pick from ${enabledSymbols().join(', ')}`);
      // Saving with trading enabled resumes after a halt or a pause, and turning it on starts a new maxLoss window;
      // on the live market trading stays off without the venue keys (the limits are saved all the same).
      const saved = await app.trading.saveSettings(id, limits, body.tradingEnabled);
      if (!saved) throw notFound('User not found');
      // Limits are not secrets: the values saved are recorded, and a refused switch with its reason.
      await audit(app, request, 'trading_settings_saved', {
        details: { ...body, ...(saved.refused && { tradingEnabled: false, refused: saved.refused }) },
      });
      const funding = await exposureFunding(app, id, saved.user.maxExposure);
      return {
        success: true,
        user: await loadPublicUser(app.db, saved.user),
        ...(funding && { funding }),
        message: saved.refused
          ? `Trading settings updated; automated trading stays off. ${saved.refused}.`
          : 'Trading settings updated successfully',
      };
    },
  );

  app.put(
    '/users/:id/api-keys',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['users'],
        summary: "Save own venue credentials (omitted = unchanged, '' = remove); answers only masked forms",
        params: IdParams,
        body: ApiKeysBody,
        response: { 200: UserAnswer },
      },
    },
    async (request): Promise<UserResponse> => {
      const { id } = request.params;
      await assertOwner(app, request, id);
      const { derivAccountId, derivToken } = request.body;
      // An account chosen with a new token is checked when it is first used; otherwise against Deriv's last list.
      if (derivAccountId && derivToken === undefined) {
        const refusal = derivChoiceRefusal(await findCredentials(app.db, id), derivAccountId);
        if (refusal) throw badRequest(refusal);
      }
      await saveCredentials(app.db, app.secrets.encryptionKey, id, request.body);
      // Which keys were saved or removed, never their values (the Deriv app id and account are no secrets, but are
      // left out too).
      const fields = Object.fromEntries(
        Object.entries(request.body)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, v === '' ? 'removed' : 'saved']),
      );
      await audit(app, request, 'api_keys_saved', { details: { fields } });
      const user = await findUserById(app.db, id);
      if (!user) throw notFound('User not found');
      return { success: true, user: await loadPublicUser(app.db, user), message: 'API keys updated successfully' };
    },
  );
};
