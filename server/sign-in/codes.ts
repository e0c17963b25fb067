// Two-factor codes: checking one (a current TOTP code, each time step once, or an unused recovery code, spent by the
// check), and the throttle every step that takes a code goes through — signing in, confirming an enrolment, turning
// it off. They share one count per account and address pair, the sign-in scheme (attempts.ts): six digits are
// guessed in a few hundred thousand tries, so wrong codes are slowed wherever they are typed.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { audit } from '../audit/audit';
import { useRecoveryCode, useTotpStep } from '../db/repositories/two-factor';
import type { TwoFactorRow } from '../db/schema';
import { decryptSecret } from '../security/encryption';
import { acceptedStep, hashRecoveryCode, isTotpCode } from '../security/totp';
import type { LoginLimiter } from './attempts';
import { tooMany } from './refusal';

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

/** The count of wrong codes: apart from wrong passwords, so a throttled password pair does not stop the owner's code. */
export const codeAccount = (userId: string) => `code:user:${userId}`;

export interface CodeAttempt {
  /** The account whose code it is. */
  userId: string;
  /** What the code was for, as the audit log says it (sign-in when omitted). */
  during?: string;
  /** The message of the 429 (what was tried too often). */
  tooMany: string;
}

/**
 * Runs `check` unless this account and address pair is waiting (429 with Retry-After), counting a null answer as a
 * wrong code (audited) and any other as a right one, which clears the pair.
 */
export async function attemptCode<T>(
  app: FastifyInstance,
  request: FastifyRequest,
  limiter: LoginLimiter,
  attempt: CodeAttempt,
  check: () => Promise<T | null>,
): Promise<T | null> {
  const account = codeAccount(attempt.userId);
  const record = (reason: string) =>
    audit(app, request, 'sign_in_2fa_failed', {
      subjectId: attempt.userId,
      details: { reason, ...(attempt.during && { during: attempt.during }) },
    });
  const waitMs = await limiter.blockedFor(account, request.ip);
  if (waitMs > 0) {
    await record('too many attempts');
    throw tooMany(attempt.tooMany, waitMs);
  }
  const result = await check();
  if (result === null) {
    await limiter.recordFailure(account, request.ip);
    await record('wrong code');
    return null;
  }
  await limiter.recordSuccess(account, request.ip);
  return result;
}
