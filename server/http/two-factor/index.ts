// Two-factor sign-in (TOTP): enrolment from Profile (QR code and secret, confirmed with a code, ten recovery codes
// shown once), turning it off with a code, and an admin's reset of another user's. The sign-in step itself is in
// http/auth (POST /auth/login/2fa).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams, type MessageResponse } from '../../../contract/api';
import {
  TWO_FACTOR_MESSAGES,
  TwoFactorConfirmBody,
  TwoFactorDisableBody,
  type TwoFactorEnabledResponse,
  type TwoFactorSetupResponse,
  type TwoFactorStatus,
  type TwoFactorStatusResponse,
} from '../../../contract/guard';
import type { Role } from '../../../contract/domain';
import { audit } from '../../audit/audit';
import type { Db } from '../../db/client';
import { deleteTwoFactor, enableTwoFactor, findTwoFactor, savePendingSecret } from '../../db/repositories/two-factor';
import { findUserById } from '../../db/repositories/users';
import { decryptSecret, encryptSecret } from '../../security/encryption';
import { acceptedStep, hashRecoveryCode, newRecoveryCodes, newTotpSecret, totpOf } from '../../security/totp';
import { badRequest, conflict, notFound } from '../plugins/http-error';
import { checkSecondFactor } from './verify';

/** Whether the user uses two-factor sign-in and whether it is required of them, as GET /auth/2fa and GET /snapshot answer it. */
export async function twoFactorStatus(
  db: Db,
  user: { id: string; role: Role },
  adminRequire2fa: boolean,
): Promise<TwoFactorStatus> {
  const row = await findTwoFactor(db, user.id);
  const enabled = row?.enabledAt != null;
  return {
    enabled,
    recoveryCodesLeft: enabled ? (row?.recoveryHashes.length ?? 0) : 0,
    required: adminRequire2fa && user.role === 'admin',
  };
}

export const ADMIN_KEEPS_2FA =
  'This server requires admins to use two-factor sign-in, so it cannot be turned off. Another admin can reset it.';

export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const key = app.secrets.encryptionKey;

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
    async (request): Promise<TwoFactorSetupResponse> => {
      const user = await findUserById(app.db, request.user.id);
      if (!user) throw notFound('User not found');
      const secret = newTotpSecret();
      if (!(await savePendingSecret(app.db, user.id, encryptSecret(key, secret))))
        throw conflict(TWO_FACTOR_MESSAGES.alreadyEnabled);
      const otpauthUrl = totpOf(secret, user.email).toString();
      // Loaded at the first enrolment, not at every start.
      const { default: QRCode } = await import('qrcode');
      const qrDataUrl = await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 240 });
      return { success: true, secret, otpauthUrl, qrDataUrl };
    },
  );

  app.post(
    '/auth/2fa/enable',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Confirms enrolment with a current code; answers ten recovery codes, shown only this once',
        body: TwoFactorConfirmBody,
      },
    },
    async (request): Promise<TwoFactorEnabledResponse> => {
      const row = await findTwoFactor(app.db, request.user.id);
      if (row?.enabledAt) throw conflict(TWO_FACTOR_MESSAGES.alreadyEnabled);
      if (!row) throw badRequest(TWO_FACTOR_MESSAGES.noPending);
      const step = acceptedStep(decryptSecret(key, row.secretEnc), request.body.code, null);
      if (step === null) throw badRequest(TWO_FACTOR_MESSAGES.wrongCode);
      const codes = newRecoveryCodes();
      if (!(await enableTwoFactor(app.db, request.user.id, codes.map(hashRecoveryCode), step)))
        throw conflict(TWO_FACTOR_MESSAGES.alreadyEnabled);
      await audit(app, request, 'two_factor_enabled');
      return {
        success: true,
        recoveryCodes: codes,
        message: 'Two-factor sign-in is on. Keep your recovery codes somewhere safe: they are shown only once.',
      };
    },
  );

  app.post(
    '/auth/2fa/disable',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Turns two-factor sign-in off, with a current code or a recovery code',
        body: TwoFactorDisableBody,
      },
    },
    async (request): Promise<MessageResponse> => {
      const row = await findTwoFactor(app.db, request.user.id);
      if (!row?.enabledAt) throw badRequest(TWO_FACTOR_MESSAGES.notEnrolled);
      if (app.config.adminRequire2fa && request.user.role === 'admin') throw badRequest(ADMIN_KEEPS_2FA);
      const used = await checkSecondFactor(app, row, request.body.code);
      if (!used) {
        await audit(app, request, 'sign_in_2fa_failed', { details: { during: 'turning two-factor off' } });
        throw badRequest(TWO_FACTOR_MESSAGES.wrongCode);
      }
      await deleteTwoFactor(app.db, request.user.id);
      await audit(app, request, 'two_factor_disabled', { details: { with: used } });
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
          "Removes a user's two-factor sign-in (lost phone); they sign in with the password alone and may enrol again",
        params: IdParams,
      },
    },
    async (request): Promise<MessageResponse> => {
      const target = await findUserById(app.db, request.params.id);
      if (!target) throw notFound('User not found');
      const row = await findTwoFactor(app.db, target.id);
      if (!row?.enabledAt) throw badRequest(`${target.username} has not set up two-factor sign-in`);
      await deleteTwoFactor(app.db, target.id);
      await audit(app, request, 'two_factor_reset', { subjectId: target.id });
      return { success: true, message: `Two-factor sign-in reset for ${target.username}` };
    },
  );
};
