// Sign-in, registration, sign-out, password change and the caller's own profile (spec section 7, /auth/*).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ChangePasswordBody,
  EMAIL_PATTERN,
  LoginBody,
  MESSAGES,
  ProfileBody,
  RegisterBody,
} from '../../../contract/api';
import type { LoginResponse, MessageResponse, RegistrationStatusResponse, UserResponse } from '../../../contract/api';
import { findTakenField, findUserById, findUserByLogin, touchLastLogin, updateUser } from '../../db/repositories/users';
import { revokeSession, revokeUserSessions } from '../../db/repositories/sessions';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../security/passwords';
import { conflict, forbidden, HttpError, notFound, unauthorized, badRequest } from '../plugins/http-error';
import { createAccount } from '../users/create-account';
import { loadPublicUser } from '../users/load-public-user';
import { z } from 'zod';
import {
  ChallengeAnswer,
  LoginAnswer,
  MessageAnswer,
  RegistrationAnswer,
  TokenMessageAnswer,
  UserAnswer,
} from '../plugins/response-schemas';
import { issueToken } from './issue-token';
import { audit } from '../../audit/audit';
import { TWO_FACTOR_MESSAGES, TwoFactorLoginBody, type TwoFactorChallengeResponse } from '../../../contract/guard';
import { findTwoFactor, hasTwoFactor } from '../../db/repositories/two-factor';
import { signChallenge, verifyChallenge } from '../../security/challenge';
import { checkSecondFactor } from '../two-factor/verify';
import type { LoginLimiter } from './login-limiter';

export const INVALID_LOGIN = 'Invalid email or password';
export const DEACTIVATED = 'Your account has been deactivated. Contact an admin.';
export const REGISTRATION_DISABLED = 'Registration is disabled. Ask an admin to create your account.';

const tooManyAttempts = (ms: number) => {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const minutes = Math.ceil(seconds / 60);
  const wait =
    seconds < 60 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return new HttpError(429, `Too many failed sign-in attempts. Try again in ${wait}.`, {
    'retry-after': String(seconds),
  });
};

export const authRoutes: FastifyPluginAsyncZod<{ limiter: LoginLimiter }> = async (app, { limiter }) => {
  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Sign in with e-mail or username; with two-factor sign-in, answers a challenge for POST /auth/login/2fa',
        body: LoginBody,
        security: [],
        response: { 200: z.union([LoginAnswer, ChallengeAnswer]) },
      },
    },
    async (request): Promise<LoginResponse | TwoFactorChallengeResponse> => {
      const { username: login, password } = request.body;
      const user = await findUserByLogin(app.db, login);
      // Count an existing account by its id, so switching between its e-mail and username gains no attempts.
      const account = user ? `user:${user.id}` : `login:${login}`;
      // An unknown login is kept only when it is an e-mail address: people do type their password into this field.
      const failed = (reason: string) =>
        audit(app, request, 'sign_in_failed', {
          actorId: null,
          subjectId: user?.id ?? null,
          subjectName: EMAIL_PATTERN.test(login.trim()) ? login.trim() : '',
          details: { reason },
        });
      const blockedMs = await limiter.blockedFor(account, request.ip);
      // A throttled pair still lets the right password through to the second factor when the account has one (the
      // OWASP scheme): someone failing from the same address cannot lock its owner out, and the code step is
      // throttled on its own. Without a second factor the throttle holds for every answer.
      const secondFactor = blockedMs > 0 && user?.isActive === true && (await hasTwoFactor(app.db, user.id));
      if (blockedMs > 0 && !secondFactor) {
        await failed('too many attempts');
        throw tooManyAttempts(blockedMs);
      }

      const valid = user ? await verifyPassword(user.passwordHash, password) : await verifyAgainstDummy(password);
      if (blockedMs > 0 && !valid) {
        await limiter.recordFailure(account, request.ip);
        await failed('too many attempts');
        throw tooManyAttempts(blockedMs);
      }
      if (!user || !valid) {
        await limiter.recordFailure(account, request.ip);
        await failed(user ? 'wrong password' : 'unknown account');
        throw unauthorized(INVALID_LOGIN);
      }
      // Only someone who knows the password learns that the account is deactivated.
      if (!user.isActive) {
        await failed('account deactivated');
        throw forbidden(DEACTIVATED);
      }
      // With two-factor sign-in the password is only the first step; both counts are cleared when the code is right.
      if (await hasTwoFactor(app.db, user.id)) {
        return {
          success: true,
          twoFactorRequired: true,
          challenge: await signChallenge(app.secrets.tokenKey, user.id),
          message: 'Enter the code from your authenticator app',
        };
      }
      await limiter.recordSuccess(account, request.ip);

      const signedIn = (await touchLastLogin(app.db, user.id)) ?? user;
      const token = await issueToken(app, request, signedIn);
      await audit(app, request, 'sign_in', { actorId: user.id, details: { with: 'password' } });
      return { success: true, user: await loadPublicUser(app.db, signedIn), token, message: 'Login successful' };
    },
  );

  app.post(
    '/auth/login/2fa',
    {
      schema: {
        tags: ['auth'],
        summary: 'Second sign-in step: the challenge from /auth/login and a TOTP or recovery code',
        body: TwoFactorLoginBody,
        security: [],
        response: { 200: LoginAnswer },
      },
    },
    async (request): Promise<LoginResponse> => {
      const userId = await verifyChallenge(app.secrets.tokenKey, request.body.challenge);
      if (!userId) throw unauthorized(TWO_FACTOR_MESSAGES.challengeExpired);
      // Codes are counted apart from passwords: a throttled password pair does not stop the owner's code.
      const account = `code:user:${userId}`;
      const blockedMs = await limiter.blockedFor(account, request.ip);
      if (blockedMs > 0) {
        await audit(app, request, 'sign_in_2fa_failed', {
          actorId: null,
          subjectId: userId,
          details: { reason: 'too many attempts' },
        });
        throw tooManyAttempts(blockedMs);
      }
      const [user, row] = await Promise.all([findUserById(app.db, userId), findTwoFactor(app.db, userId)]);
      if (!user || !user.isActive || !row?.enabledAt) throw unauthorized(TWO_FACTOR_MESSAGES.challengeExpired);
      const used = await checkSecondFactor(app, row, request.body.code);
      if (!used) {
        await limiter.recordFailure(account, request.ip);
        await audit(app, request, 'sign_in_2fa_failed', {
          actorId: null,
          subjectId: userId,
          details: { reason: 'wrong code' },
        });
        throw unauthorized(TWO_FACTOR_MESSAGES.wrongCode);
      }
      await Promise.all([
        limiter.recordSuccess(account, request.ip),
        limiter.recordSuccess(`user:${userId}`, request.ip),
      ]);
      const signedIn = (await touchLastLogin(app.db, user.id)) ?? user;
      const token = await issueToken(app, request, signedIn);
      await audit(app, request, 'sign_in', {
        actorId: user.id,
        details: { with: used === 'totp' ? 'password and authenticator code' : 'password and recovery code' },
      });
      if (used === 'recovery')
        await audit(app, request, 'two_factor_recovery_used', {
          actorId: user.id,
          details: { left: Math.max(0, row.recoveryHashes.length - 1) },
        });
      return { success: true, user: await loadPublicUser(app.db, signedIn), token, message: 'Login successful' };
    },
  );

  // Public: the sign-up page asks before it offers a form (the spec's product has none; an operator may open it).
  app.get(
    '/auth/registration',
    {
      schema: {
        tags: ['auth'],
        summary: 'Whether self-registration is open on this server',
        security: [],
        response: { 200: RegistrationAnswer },
      },
    },
    async (): Promise<RegistrationStatusResponse> => ({ success: true, open: app.config.allowRegistration }),
  );

  app.post(
    '/auth/register',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account (only when ALLOW_REGISTRATION=true)',
        body: RegisterBody,
        security: [],
        response: { 201: LoginAnswer },
      },
      // Refuse before validating, so a closed registration says so whatever the body holds.
      onRequest: async () => {
        if (!app.config.allowRegistration) throw forbidden(REGISTRATION_DISABLED);
      },
    },
    async (request, reply): Promise<LoginResponse> => {
      const user = await createAccount(app.db, request.body);
      const token = await issueToken(app, request, user);
      reply.code(201);
      return { success: true, user: await loadPublicUser(app.db, user), token, message: 'Registration successful' };
    },
  );

  app.post(
    '/auth/logout',
    {
      preHandler: app.authenticate,
      schema: { tags: ['auth'], summary: 'End this session', response: { 200: MessageAnswer } },
    },
    async (request): Promise<MessageResponse> => {
      await revokeSession(app.db, request.user.sessionId);
      await audit(app, request, 'sign_out');
      app.revocations$.next({ userId: request.user.id });
      return { success: true, message: 'Logged out successfully' };
    },
  );

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
      const user = await findUserById(app.db, request.user.id);
      if (!user) throw notFound('User not found');
      // 400, not 401: the client treats 401 as "signed out".
      if (!(await verifyPassword(user.passwordHash, request.body.currentPassword)))
        throw badRequest('Current password is incorrect');
      const passwordHash = await hashPassword(request.body.newPassword);
      const token = await app.db.transaction(async (tx) => {
        await updateUser(tx, user.id, { passwordHash });
        await revokeUserSessions(tx, user.id);
        return issueToken(app, request, user, tx);
      });
      app.revocations$.next({ userId: user.id });
      await audit(app, request, 'password_changed');
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
        summary: "Update the caller's personal details",
        body: ProfileBody,
        response: { 200: UserAnswer },
      },
    },
    async (request): Promise<UserResponse> => {
      const body = request.body;
      // Which of the two is taken is not said: that would tell any signed-in user which e-mails have accounts here.
      if (await findTakenField(app.db, body, request.user.id)) throw conflict(MESSAGES.profileNotSaved);
      const user = await updateUser(app.db, request.user.id, {
        username: body.username,
        email: body.email,
        ...(body.firstName !== undefined && { firstName: body.firstName.trim() }),
        ...(body.lastName !== undefined && { lastName: body.lastName.trim() }),
        ...(body.phone !== undefined && { phone: body.phone.trim() }),
        ...(body.bio !== undefined && { bio: body.bio }),
      });
      if (!user) throw notFound('User not found');
      await audit(app, request, 'profile_updated', {
        details: { fields: Object.keys(body).filter((k) => body[k as keyof typeof body] !== undefined) },
      });
      return { success: true, user: await loadPublicUser(app.db, user), message: 'Profile updated successfully' };
    },
  );
};
