// The caller's own account: the profile (spec section 7, GET/PUT /auth/profile), the time zone dates are shown in
// and the password change. What may be
// changed and how often is server/sign-in's (identity.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ChangePasswordBody, ProfileBody, TimeZoneBody } from '../../../contract/api';
import type { MessageResponse, UserResponse } from '../../../contract/api';
import { audit } from '../../audit/audit';
import { findUserById, updateUser } from '../../db/repositories/users';
import { notFound } from '../plugins/http-error';
import { TokenMessageAnswer, UserAnswer } from '../plugins/response-schemas';
import { loadPublicUser } from '../users/load-public-user';

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/auth/change-password',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Change password; ends every session and returns a fresh token',
        body: ChangePasswordBody,
        response: { 200: TokenMessageAnswer },
      },
    },
    async (request): Promise<MessageResponse & { token: string }> => {
      const token = await app.signIn.changePassword(request, request.body);
      return { success: true, message: 'Password changed successfully', token };
    },
  );

  app.get(
    '/auth/profile',
    {
      preHandler: app.authenticate,
      schema: { tags: ['auth'], summary: "The caller's user record", response: { 200: UserAnswer } },
    },
    async (request): Promise<UserResponse> => {
      const user = await findUserById(app.db, request.user.id);
      if (!user) throw notFound('User not found');
      return { success: true, user: await loadPublicUser(app.db, user) };
    },
  );

  app.put(
    '/auth/profile',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: "Update the caller's personal details (username and e-mail changes are limited per hour)",
        body: ProfileBody,
        response: { 200: UserAnswer },
      },
    },
    async (request): Promise<UserResponse> => {
      const user = await app.signIn.saveProfile(request, request.body);
      return { success: true, user: await loadPublicUser(app.db, user), message: 'Profile updated successfully' };
    },
  );

  app.put(
    '/auth/time-zone',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: "Set the IANA time zone the caller's dates are shown in (null: the browser's own), on every device",
        body: TimeZoneBody,
        response: { 200: UserAnswer },
      },
    },
    async (request): Promise<UserResponse> => {
      const user = await updateUser(app.db, request.user.id, { timeZone: request.body.timeZone });
      if (!user) throw notFound('User not found');
      await audit(app, request, 'profile_updated', { details: { fields: ['timeZone'] } });
      return { success: true, user: await loadPublicUser(app.db, user), message: 'Time zone saved' };
    },
  );
};
