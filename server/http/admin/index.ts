// User management for admins (spec section 7, /admin/users*). An admin cannot remove or deactivate itself, and the
// last active admin always stays, so the installation can never lock itself out.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminUsersQuery, CreateUserBody, IdParams } from '../../../contract/api';
import type { MessageResponse, UserResponse, UsersResponse } from '../../../contract/api';
import { findCredentialsFor } from '../../db/repositories/credentials';
import { revokeUserSessions } from '../../db/repositories/sessions';
import { deleteUser, findTakenField, findUserById, insertUser, listUsers, updateUser } from '../../db/repositories/users';
import { hashPassword } from '../../security/passwords';
import { takenMessage } from '../auth';
import { badRequest, conflict, notFound } from '../plugins/http-error';
import { loadPublicUser } from '../users/load-public-user';
import { toPublicUser } from '../users/public-user';
import { lockActiveAdmins } from './last-admin';
import { MessageAnswer, UserAnswer, UsersAnswer } from '../plugins/response-schemas';

export const CANNOT_DELETE_SELF = 'You cannot delete your own account';
export const CANNOT_DEACTIVATE_SELF = 'You cannot deactivate your own account';
export const LAST_ADMIN = 'The last active admin cannot be removed or deactivated';

export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const guard = [app.authenticate, app.requireAdmin];

  app.get(
    '/admin/users',
    { preHandler: guard, schema: { tags: ['admin'], summary: 'List users; search by username, filter by role', querystring: AdminUsersQuery, response: { 200: UsersAnswer } } },
    async (request): Promise<UsersResponse> => {
      const { search, role } = request.query;
      const rows = await listUsers(app.db, { ...(search && { search }), ...(role && { role }) });
      const credentials = await findCredentialsFor(app.db, rows.map((row) => row.id));
      const users = rows.map((row) => toPublicUser(row, credentials.get(row.id) ?? null));
      return { success: true, users };
    },
  );

  app.post(
    '/admin/users',
    { preHandler: guard, schema: { tags: ['admin'], summary: 'Create a user', body: CreateUserBody, response: { 201: UserAnswer } } },
    async (request, reply): Promise<UserResponse> => {
      const body = request.body;
      const taken = await findTakenField(app.db, body);
      if (taken) throw conflict(takenMessage(taken));
      const user = await insertUser(app.db, {
        username: body.username,
        email: body.email,
        role: body.role,
        passwordHash: await hashPassword(body.password),
      });
      reply.code(201);
      return { success: true, user: await loadPublicUser(app.db, user), message: 'User created successfully' };
    },
  );

  app.delete(
    '/admin/users/:id',
    { preHandler: guard, schema: { tags: ['admin'], summary: 'Delete a user and everything it owns', params: IdParams, response: { 200: MessageAnswer } } },
    async (request): Promise<MessageResponse> => {
      const { id } = request.params;
      if (id === request.user.id) throw badRequest(CANNOT_DELETE_SELF);
      await app.db.transaction(async (tx) => {
        const activeAdmins = await lockActiveAdmins(tx);
        const target = await findUserById(tx, id);
        if (!target) throw notFound('User not found');
        if (activeAdmins.includes(id) && activeAdmins.length <= 1) throw badRequest(LAST_ADMIN);
        // Sessions go with the user (foreign key cascade); revoking first keeps that explicit.
        await revokeUserSessions(tx, id);
        await deleteUser(tx, id);
      });
      app.revocations$.next({ userId: id });
      return { success: true, message: 'User deleted successfully' };
    },
  );

  app.put(
    '/admin/users/:id/toggle-active',
    { preHandler: guard, schema: { tags: ['admin'], summary: 'Activate or deactivate a user', params: IdParams, response: { 200: UserAnswer } } },
    async (request): Promise<UserResponse> => {
      const { id } = request.params;
      if (id === request.user.id) throw badRequest(CANNOT_DEACTIVATE_SELF);
      const updated = await app.db.transaction(async (tx) => {
        const activeAdmins = await lockActiveAdmins(tx);
        const target = await findUserById(tx, id);
        if (!target) throw notFound('User not found');
        const deactivating = target.isActive;
        if (deactivating && activeAdmins.includes(id) && activeAdmins.length <= 1) throw badRequest(LAST_ADMIN);
        const row = await updateUser(tx, id, { isActive: !deactivating });
        if (deactivating) await revokeUserSessions(tx, id);
        return row;
      });
      if (!updated) throw notFound('User not found');
      if (!updated.isActive) app.revocations$.next({ userId: id });
      return {
        success: true,
        user: await loadPublicUser(app.db, updated),
        message: updated.isActive ? 'User activated' : 'User deactivated',
      };
    },
  );
};
