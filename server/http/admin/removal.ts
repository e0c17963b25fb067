// Removing and deactivating accounts (spec section 7, /admin/users/:id*). An admin cannot remove or deactivate
// itself, and the last active admin always stays, so the installation can never lock itself out. A user with open trades is neither
// deleted nor deactivated until they are closed (positions on the venues must never be left without an owner):
// `?closeTrades=true` has the trading owner close them first (server/trading/account-removal.ts).
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminUserCommandQuery, IdParams } from '../../../contract/api';
import type { MessageResponse, UserResponse } from '../../../contract/api';
import { revokeUserSessions } from '../../db/repositories/sessions';
import {
  countOpenTrades,
  deleteUser,
  findUserById,
  lockActiveAdmins,
  lockUser,
  updateUser,
} from '../../db/repositories/users';
import {
  closedNote,
  openTradesMessage,
  settleOpenTrades,
  stopForDeactivation,
  type RemovalAction,
} from '../../trading/account-removal';
import { badRequest, conflict, notFound } from '../plugins/http-error';
import { loadPublicUser } from '../users/load-public-user';
import { MessageAnswer, UserAnswer } from '../plugins/response-schemas';
import { audit } from '../../audit/audit';

export const CANNOT_DELETE_SELF = 'You cannot delete your own account';
export const CANNOT_DEACTIVATE_SELF = 'You cannot deactivate your own account';
export const LAST_ADMIN = 'The last active admin cannot be removed or deactivated';

/** Refuses (409) while the user has open trades, unless closeTrades asked the trading owner to close them first. */
async function settle(app: FastifyInstance, userId: string, closeTrades: boolean, action: RemovalAction) {
  const settled = await settleOpenTrades({ db: app.db, trading: app.trading }, userId, closeTrades, action);
  if (!settled.ok) throw conflict(settled.message);
  return settled.closed;
}

export const accountRemovalRoutes: FastifyPluginAsyncZod = async (app) => {
  const guard = [app.authenticate, app.requireAdmin];

  app.delete(
    '/admin/users/:id',
    {
      preHandler: guard,
      schema: {
        tags: ['admin'],
        summary:
          'Delete a user and everything it owns; refused while trades are open unless closeTrades=true closes them',
        params: IdParams,
        querystring: AdminUserCommandQuery,
        response: { 200: MessageAnswer },
      },
    },
    async (request): Promise<MessageResponse> => {
      const { id } = request.params;
      if (id === request.user.id) throw badRequest(CANNOT_DELETE_SELF);
      const victim = await findUserById(app.db, id);
      if (!victim) throw notFound('User not found');
      const closed = await settle(app, id, request.query.closeTrades === 'true', 'delete');
      await app.db.transaction(async (tx) => {
        const activeAdmins = await lockActiveAdmins(tx);
        const target = await lockUser(tx, id);
        if (!target) throw notFound('User not found');
        if (activeAdmins.includes(id) && activeAdmins.length <= 1) throw badRequest(LAST_ADMIN);
        // Checked again under the user's lock: a trade being opened now waits for it and then finds no user.
        const open = await countOpenTrades(tx, id);
        if (open > 0) throw conflict(openTradesMessage(open, 'delete'));
        // Sessions go with the user (foreign key cascade); revoking first keeps that explicit.
        await revokeUserSessions(tx, id);
        await deleteUser(tx, id);
      });
      app.revocations$.next({ userId: id });
      await audit(app, request, 'user_deleted', {
        subjectId: id,
        subjectName: victim.username,
        details: { email: victim.email, tradesClosed: closed },
      });
      return { success: true, message: `User deleted successfully${closedNote(closed)}` };
    },
  );

  app.put(
    '/admin/users/:id/toggle-active',
    {
      preHandler: guard,
      schema: {
        tags: ['admin'],
        summary:
          'Activate or deactivate a user; deactivating is refused while trades are open unless closeTrades=true closes them',
        params: IdParams,
        querystring: AdminUserCommandQuery,
        response: { 200: UserAnswer },
      },
    },
    async (request): Promise<UserResponse> => {
      const { id } = request.params;
      if (id === request.user.id) throw badRequest(CANNOT_DEACTIVATE_SELF);
      const current = await findUserById(app.db, id);
      if (!current) throw notFound('User not found');
      const closed = current.isActive ? await settle(app, id, request.query.closeTrades === 'true', 'deactivate') : 0;
      const updated = await app.db.transaction(async (tx) => {
        const activeAdmins = await lockActiveAdmins(tx);
        const target = await lockUser(tx, id);
        if (!target) throw notFound('User not found');
        const deactivating = target.isActive;
        if (deactivating && activeAdmins.includes(id) && activeAdmins.length <= 1) throw badRequest(LAST_ADMIN);
        if (deactivating) {
          const open = await countOpenTrades(tx, id);
          if (open > 0) throw conflict(openTradesMessage(open, 'deactivate'));
        }
        if (deactivating) {
          // The stored switch says what the engine does: it trades for no inactive account.
          await stopForDeactivation(tx, id);
          await revokeUserSessions(tx, id);
        }
        return updateUser(tx, id, { isActive: !deactivating });
      });
      if (!updated) throw notFound('User not found');
      if (!updated.isActive) app.revocations$.next({ userId: id });
      await audit(app, request, updated.isActive ? 'user_activated' : 'user_deactivated', {
        subjectId: id,
        details: { tradesClosed: closed },
      });
      return {
        success: true,
        user: await loadPublicUser(app.db, updated),
        message: updated.isActive ? 'User activated' : `User deactivated${closedNote(closed)}`,
      };
    },
  );
};
