// Managing a user's second factor: enrolment from Profile (a secret shown as text and QR code, confirmed with a
// current code, ten recovery codes shown once), turning it off with a code, and an admin's reset of another user's.
// Each code typed here goes through the code throttle (codes.ts). Each change of how the account signs in ends the
// account's other sessions, as a password change does: a session opened before the second factor was enrolled (or
// by whoever had the password alone) must not outlive it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Role } from '../../contract/domain';
import { TWO_FACTOR_MESSAGES, type TwoFactorStatus } from '../../contract/guard';
import { audit } from '../audit/audit';
import type { Db } from '../db/client';
import { deleteTwoFactor, enableTwoFactor, findTwoFactor, savePendingSecret } from '../db/repositories/two-factor';
import { findUserById } from '../db/repositories/users';
import type { UserRow } from '../db/schema';
import { decryptSecret, encryptSecret } from '../security/encryption';
import { acceptedStep, hashRecoveryCode, newRecoveryCodes, newTotpSecret, totpOf } from '../security/totp';
import type { LoginLimiter } from './attempts';
import { attemptCode, checkSecondFactor, type SecondFactor } from './codes';
import { Refusal } from './refusal';
import { endOtherSessions } from './sessions';

export const ADMIN_KEEPS_2FA =
  'This server requires admins to use two-factor sign-in, so it cannot be turned off. Another admin can reset it.';
const TOO_MANY_CODES = 'Too many wrong codes';
const USER_NOT_FOUND = 'User not found';

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

export interface Enrolment {
  secret: string;
  otpauthUrl: string;
  qrDataUrl: string;
}

/** A new secret, pending until confirmed; refused while two-factor sign-in is on. */
export async function startEnrolment(app: FastifyInstance, request: FastifyRequest): Promise<Enrolment> {
  const user = await findUserById(app.db, request.user.id);
  if (!user) throw new Refusal(404, USER_NOT_FOUND);
  const secret = newTotpSecret();
  if (!(await savePendingSecret(app.db, user.id, encryptSecret(app.secrets.encryptionKey, secret))))
    throw new Refusal(409, TWO_FACTOR_MESSAGES.alreadyEnabled);
  const otpauthUrl = totpOf(secret, user.email).toString();
  // Loaded at the first enrolment, not at every start.
  const { default: QRCode } = await import('qrcode');
  return { secret, otpauthUrl, qrDataUrl: await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 240 }) };
}

/** Turns the pending secret on with a current code; answers the recovery codes, shown only this once. */
export async function confirmEnrolment(
  app: FastifyInstance,
  request: FastifyRequest,
  limiter: LoginLimiter,
  code: string,
): Promise<string[]> {
  const { id: userId, sessionId } = request.user;
  const row = await findTwoFactor(app.db, userId);
  if (row?.enabledAt) throw new Refusal(409, TWO_FACTOR_MESSAGES.alreadyEnabled);
  if (!row) throw new Refusal(400, TWO_FACTOR_MESSAGES.noPending);
  const attempt = { userId, during: 'setting up two-factor sign-in', tooMany: TOO_MANY_CODES };
  const step = await attemptCode(app, request, limiter, attempt, async () =>
    acceptedStep(decryptSecret(app.secrets.encryptionKey, row.secretEnc), code, null),
  );
  if (step === null) throw new Refusal(400, TWO_FACTOR_MESSAGES.wrongCode);
  const codes = newRecoveryCodes();
  if (!(await enableTwoFactor(app.db, userId, codes.map(hashRecoveryCode), step)))
    throw new Refusal(409, TWO_FACTOR_MESSAGES.alreadyEnabled);
  await endOtherSessions(app, userId, sessionId);
  await audit(app, request, 'two_factor_enabled');
  return codes;
}

/** Turns the caller's second factor off with a current or recovery code. */
export async function turnOff(
  app: FastifyInstance,
  request: FastifyRequest,
  limiter: LoginLimiter,
  code: string,
): Promise<SecondFactor> {
  const { id: userId, role, sessionId } = request.user;
  const row = await findTwoFactor(app.db, userId);
  if (!row?.enabledAt) throw new Refusal(400, TWO_FACTOR_MESSAGES.notEnrolled);
  if (app.config.adminRequire2fa && role === 'admin') throw new Refusal(400, ADMIN_KEEPS_2FA);
  const attempt = { userId, during: 'turning two-factor off', tooMany: TOO_MANY_CODES };
  const used = await attemptCode(app, request, limiter, attempt, () => checkSecondFactor(app, row, code));
  if (!used) throw new Refusal(400, TWO_FACTOR_MESSAGES.wrongCode);
  await deleteTwoFactor(app.db, userId);
  await endOtherSessions(app, userId, sessionId);
  await audit(app, request, 'two_factor_disabled', { details: { with: used } });
  return used;
}

/** An admin removes a user's second factor (a lost phone): that user signs in again with the password alone. */
export async function resetByAdmin(app: FastifyInstance, request: FastifyRequest, targetId: string): Promise<UserRow> {
  const target = await findUserById(app.db, targetId);
  if (!target) throw new Refusal(404, USER_NOT_FOUND);
  const row = await findTwoFactor(app.db, target.id);
  if (!row?.enabledAt) throw new Refusal(400, `${target.username} has not set up two-factor sign-in`);
  await deleteTwoFactor(app.db, target.id);
  // An admin resetting their own keeps the session they did it from.
  await endOtherSessions(app, target.id, target.id === request.user.id ? request.user.sessionId : undefined);
  await audit(app, request, 'two_factor_reset', { subjectId: target.id });
  return target;
}
