// User management for admins (spec section 7, /admin/users*): listing and creating accounts. Removing and
// deactivating them is in removal.ts.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminUsersQuery, CreateUserBody } from '../../../contract/api';
import type { UserResponse, UsersResponse } from '../../../contract/api';
import { findCredentialsFor } from '../../db/repositories/credentials';
import { usersWithTwoFactor } from '../../db/repositories/two-factor';
import { listUsers } from '../../db/repositories/users';
import { createAccount } from '../users/create-account';
import { loadPublicUser } from '../users/load-public-user';
import { toPublicUser } from '../users/public-user';
import { UserAnswer, UsersAnswer } from '../plugins/response-schemas';
import { audit } from '../../audit/audit';

export { CANNOT_DEACTIVATE_SELF, CANNOT_DELETE_SELF, LAST_ADMIN, accountRemovalRoutes } from './removal';

export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const guard = [app.authenticate, app.requireAdmin];

  app.get(
    '/admin/users',
    {
      preHandler: guard,
      schema: {
        tags: ['admin'],
        summary: 'List users; search by username, filter by role',
        querystring: AdminUsersQuery,
        response: { 200: UsersAnswer },
      },
    },
    async (request): Promise<UsersResponse> => {
      const { search, role } = request.query;
      const rows = await listUsers(app.db, { ...(search && { search }), ...(role && { role }) });
      const ids = rows.map((row) => row.id);
      const [credentials, withTwoFactor] = await Promise.all([
        findCredentialsFor(app.db, ids),
        usersWithTwoFactor(app.db, ids),
      ]);
      const users = rows.map((row) => ({
        ...toPublicUser(row, credentials.get(row.id) ?? null),
        twoFactorEnabled: withTwoFactor.has(row.id),
      }));
      return { success: true, users };
    },
  );

  app.post(
    '/admin/users',
    {
      preHandler: guard,
      schema: { tags: ['admin'], summary: 'Create a user', body: CreateUserBody, response: { 201: UserAnswer } },
    },
    async (request, reply): Promise<UserResponse> => {
      const user = await createAccount(app.db, request.body);
      await audit(app, request, 'user_created', {
        subjectId: user.id,
        details: { role: user.role, email: user.email },
      });
      reply.code(201);
      return { success: true, user: await loadPublicUser(app.db, user), message: 'User created successfully' };
    },
  );
};
