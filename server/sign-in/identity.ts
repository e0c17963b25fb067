// What a user signs in with — username, e-mail, password — changed by the user. A username or e-mail that belongs to
// someone else is refused without saying which (409): the answer would tell any signed-in user which e-mails have
// accounts here. Even so each refusal answers one guess, so changes of either are limited per user (a refused or a
// saved one alike) and refusals are audited. The current password is checked on the sign-in count of the account
// and address, so a stolen session cannot guess it faster than a sign-in form could.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RateLimiterRes, type RateLimiterAbstract } from '../security/rate-limiter';
import { MESSAGES, type ProfileBody } from '../../contract/api';
import { audit } from '../audit/audit';
import { revokeUserSessions } from '../db/repositories/sessions';
import { findTakenField, findUserById, updateUser } from '../db/repositories/users';
import type { UserRow } from '../db/schema';
import { hashPassword, verifyPassword } from '../security/passwords';
import type { Counters, LoginLimiter } from './attempts';
import { Refusal, tooMany } from './refusal';
import { issueToken } from './sessions';

/** Changes of username or e-mail a user may try per hour: a move or a typo, not a survey of who has an account. */
export const IDENTITY_CHANGES_PER_HOUR = 5;

export const identityChangeLimiter = (counters: Counters, namespace = 'arb'): RateLimiterAbstract =>
  counters.make(IDENTITY_CHANGES_PER_HOUR, 3600, `${namespace}:identity-changes`);

const USER_NOT_FOUND = 'User not found';

export async function saveProfile(
  app: FastifyInstance,
  request: FastifyRequest,
  limiter: RateLimiterAbstract,
  body: ProfileBody,
): Promise<UserRow> {
  const userId = request.user.id;
  const current = await findUserById(app.db, userId);
  if (!current) throw new Refusal(404, USER_NOT_FOUND);
  const changing = (['username', 'email'] as const).filter((f) => body[f].toLowerCase() !== current[f].toLowerCase());
  const refused = (reason: string) =>
    audit(app, request, 'profile_change_refused', { details: { fields: changing, reason } });
  if (changing.length > 0) {
    const waitMs = await limiter.consume(userId).then(
      () => 0,
      // A counter store that fails lets the change through (as sign-in counting does); a spent allowance does not.
      (refusal: unknown) => (refusal instanceof RateLimiterRes ? Math.max(refusal.msBeforeNext, 1) : 0),
    );
    if (waitMs > 0) {
      await refused('too many changes');
      throw tooMany('Too many changes of username or email', waitMs);
    }
    if (await findTakenField(app.db, body, userId)) {
      await refused('taken');
      throw new Refusal(409, MESSAGES.profileNotSaved);
    }
  }
  const user = await updateUser(app.db, userId, {
    username: body.username,
    email: body.email,
    ...(body.firstName !== undefined && { firstName: body.firstName.trim() }),
    ...(body.lastName !== undefined && { lastName: body.lastName.trim() }),
    ...(body.phone !== undefined && { phone: body.phone.trim() }),
    ...(body.bio !== undefined && { bio: body.bio }),
  });
  if (!user) throw new Refusal(404, USER_NOT_FOUND);
  await audit(app, request, 'profile_updated', {
    details: { fields: Object.keys(body).filter((k) => body[k as keyof typeof body] !== undefined) },
  });
  return user;
}

/** A new password ends every session of the user; answers a fresh token for the caller. */
export async function changePassword(
  app: FastifyInstance,
  request: FastifyRequest,
  limiter: LoginLimiter,
  passwords: { currentPassword: string; newPassword: string },
): Promise<string> {
  const user = await findUserById(app.db, request.user.id);
  if (!user) throw new Refusal(404, USER_NOT_FOUND);
  const account = `user:${user.id}`;
  const waitMs = await limiter.blockedFor(account, request.ip);
  if (waitMs > 0) throw tooMany('Too many wrong passwords', waitMs);
  // 400, not 401: the client treats 401 as "signed out".
  if (!(await verifyPassword(user.passwordHash, passwords.currentPassword))) {
    await limiter.recordFailure(account, request.ip);
    throw new Refusal(400, 'Current password is incorrect');
  }
  const passwordHash = await hashPassword(passwords.newPassword);
  const token = await app.db.transaction(async (tx) => {
    await updateUser(tx, user.id, { passwordHash });
    await revokeUserSessions(tx, user.id);
    return issueToken(app, request, user, tx);
  });
  app.revocations$.next({ userId: user.id });
  await audit(app, request, 'password_changed');
  return token;
}
