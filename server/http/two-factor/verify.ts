// Checks a second-factor code for a user: a current TOTP code (each time step once), or an unused recovery code
// (spent by the check). Shared by the sign-in step and by turning 2FA off.
import type { FastifyInstance } from 'fastify';
import { useRecoveryCode, useTotpStep } from '../../db/repositories/two-factor';
import type { TwoFactorRow } from '../../db/schema';
import { decryptSecret } from '../../security/encryption';
import { acceptedStep, hashRecoveryCode, isTotpCode } from '../../security/totp';

export type SecondFactor = 'totp' | 'recovery';

export async function checkSecondFactor(
  app: FastifyInstance,
  row: TwoFactorRow,
  code: string,
): Promise<SecondFactor | null> {
  if (isTotpCode(code)) {
    const secret = decryptSecret(app.secrets.encryptionKey, row.secretEnc);
    const step = acceptedStep(secret, code, row.lastStep === null ? null : Number(row.lastStep));
    return step !== null && (await useTotpStep(app.db, row.userId, step)) ? 'totp' : null;
  }
  return (await useRecoveryCode(app.db, row.userId, hashRecoveryCode(code))) ? 'recovery' : null;
}
