// The two steps of signing in. The password step is throttled per account and address pair whatever the account's
// second factor (OWASP: the password must stay hard to guess online, and with ADMIN_REQUIRE_2FA every admin has one);
// the owner on another address is not slowed, so nobody can lock an account out by failing on purpose. With
// two-factor sign-in a right password answers a short-lived challenge, and the code step is throttled on its own
// count (codes.ts); both counts are cleared when the code is right.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EMAIL_PATTERN } from '../../contract/api';
import { TWO_FACTOR_MESSAGES } from '../../contract/guard';
import { audit } from '../audit/audit';
import { findTwoFactor, hasTwoFactor } from '../db/repositories/two-factor';
import { findUserById, findUserByLogin, touchLastLogin } from '../db/repositories/users';
import type { UserRow } from '../db/schema';
import { signChallenge, verifyChallenge } from '../security/challenge';
import { verifyAgainstDummy, verifyPassword } from '../security/passwords';
import type { LoginLimiter } from './attempts';
import { attemptCode, checkSecondFactor } from './codes';
import { Refusal, tooMany } from './refusal';
import { issueToken } from './sessions';

export const INVALID_LOGIN = 'Invalid email or password';
export const DEACTIVATED = 'Your account has been deactivated. Contact an admin.';
const TOO_MANY_SIGN_INS = 'Too many failed sign-in attempts';

export interface SignedIn {
  user: UserRow;
  token: string;
}
export type PasswordAnswer = SignedIn | { challenge: string };

/** The account's count: an existing account by its id, so switching between its e-mail and username gains nothing. */
const passwordAccount = (user: UserRow | null, login: string) => (user ? `user:${user.id}` : `login:${login}`);

export async function passwordStep(
  app: FastifyInstance,
  request: FastifyRequest,
  limiter: LoginLimiter,
  login: string,
  password: string,
): Promise<PasswordAnswer> {
  const user = await findUserByLogin(app.db, login);
  const account = passwordAccount(user, login);
  // An unknown login is kept only when it is an e-mail address: people do type their password into this field.
  const failed = (reason: string) =>
    audit(app, request, 'sign_in_failed', {
      actorId: null,
      subjectId: user?.id ?? null,
      subjectName: EMAIL_PATTERN.test(login.trim()) ? login.trim() : '',
      details: { reason },
    });
  // A throttled pair is refused before the password is looked at, right or wrong, second factor or not.
  const waitMs = await limiter.blockedFor(account, request.ip);
  if (waitMs > 0) {
    await failed('too many attempts');
    throw tooMany(TOO_MANY_SIGN_INS, waitMs);
  }
  const valid = user ? await verifyPassword(user.passwordHash, password) : await verifyAgainstDummy(password);
  if (!user || !valid) {
    await limiter.recordFailure(account, request.ip);
    await failed(user ? 'wrong password' : 'unknown account');
    throw new Refusal(401, INVALID_LOGIN);
  }
  // Only someone who knows the password learns that the account is deactivated.
  if (!user.isActive) {
    await failed('account deactivated');
    throw new Refusal(403, DEACTIVATED);
  }
  if (await hasTwoFactor(app.db, user.id)) return { challenge: await signChallenge(app.secrets.tokenKey, user.id) };
  await limiter.recordSuccess(account, request.ip);
  return signedIn(app, request, user, 'password');
}

export async function codeStep(
  app: FastifyInstance,
  request: FastifyRequest,
  limiter: LoginLimiter,
  challenge: string,
  code: string,
): Promise<SignedIn> {
  const userId = await verifyChallenge(app.secrets.tokenKey, challenge);
  if (!userId) throw new Refusal(401, TWO_FACTOR_MESSAGES.challengeExpired);
  const checked = await attemptCode(app, request, limiter, { userId, tooMany: TOO_MANY_SIGN_INS }, async () => {
    const [user, row] = await Promise.all([findUserById(app.db, userId), findTwoFactor(app.db, userId)]);
    if (!user || !user.isActive || !row?.enabledAt) throw new Refusal(401, TWO_FACTOR_MESSAGES.challengeExpired);
    const used = await checkSecondFactor(app, row, code);
    return used ? { user, used, recoveryLeft: Math.max(0, row.recoveryHashes.length - 1) } : null;
  });
  if (!checked) throw new Refusal(401, TWO_FACTOR_MESSAGES.wrongCode);
  await limiter.recordSuccess(passwordAccount(checked.user, ''), request.ip);
  const answer = await signedIn(
    app,
    request,
    checked.user,
    checked.used === 'totp' ? 'password and authenticator code' : 'password and recovery code',
  );
  if (checked.used === 'recovery')
    await audit(app, request, 'two_factor_recovery_used', {
      actorId: checked.user.id,
      details: { left: checked.recoveryLeft },
    });
  return answer;
}

async function signedIn(app: FastifyInstance, request: FastifyRequest, user: UserRow, how: string): Promise<SignedIn> {
  const current = (await touchLastLogin(app.db, user.id)) ?? user;
  const token = await issueToken(app, request, current);
  await audit(app, request, 'sign_in', { actorId: user.id, details: { with: how } });
  return { user: current, token };
}
