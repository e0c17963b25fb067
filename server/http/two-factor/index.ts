// Two-factor sign-in (TOTP) from Profile: its status, enrolment (QR code and secret, confirmed with a code, ten
// recovery codes shown once), turning it off with a code, and an admin's reset of another user's. The sign-in step
// itself is POST /auth/login/2fa (http/auth); the policy behind all of them is server/sign-in's (second-factor.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams, type MessageResponse } from '../../../contract/api';
import {
  TwoFactorConfirmBody,
  TwoFactorDisableBody,
  type TwoFactorEnabledResponse,
  type TwoFactorSetupResponse,
  type TwoFactorStatusResponse,
} from '../../../contract/guard';
import { twoFactorStatus } from '../../sign-in';

export { ADMIN_KEEPS_2FA, twoFactorStatus } from '../../sign-in';

export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/auth/2fa',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Whether the caller uses two-factor sign-in, and whether it is required of them',
      },
    },
    async (request): Promise<TwoFactorStatusResponse> => {
      return { success: true, twoFactor: await twoFactorStatus(app.db, request.user, app.config.adminRequire2fa) };
    },
  );

  app.post(
    '/auth/2fa/setup',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Starts enrolment: a new secret as text and QR code (not active until confirmed)',
      },
    },
    async (request): Promise<TwoFactorSetupResponse> => ({
      success: true,
      ...(await app.signIn.startEnrolment(request)),
    }),
  );

  app.post(
    '/auth/2fa/enable',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary:
          'Confirms enrolment with a current code; answers ten recovery codes, shown only this once, and ends the other sessions',
        body: TwoFactorConfirmBody,
      },
    },
    async (request): Promise<TwoFactorEnabledResponse> => ({
      success: true,
      recoveryCodes: await app.signIn.confirmEnrolment(request, request.body.code),
      message: 'Two-factor sign-in is on. Keep your recovery codes somewhere safe: they are shown only once.',
    }),
  );

  app.post(
    '/auth/2fa/disable',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Turns two-factor sign-in off with a current code or a recovery code; ends the other sessions',
        body: TwoFactorDisableBody,
      },
    },
    async (request): Promise<MessageResponse> => {
      await app.signIn.turnOff(request, request.body.code);
      return { success: true, message: 'Two-factor sign-in is off.' };
    },
  );

  app.post(
    '/admin/users/:id/2fa/reset',
    {
      preHandler: [app.authenticate, app.requireAdmin],
      schema: {
        tags: ['admin'],
        summary:
          "Removes a user's two-factor sign-in (lost phone) and ends their sessions; they sign in with the password alone and may enrol again",
        params: IdParams,
      },
    },
    async (request): Promise<MessageResponse> => {
      const target = await app.signIn.resetSecondFactor(request, request.params.id);
      return { success: true, message: `Two-factor sign-in reset for ${target.username}` };
    },
  );
};
