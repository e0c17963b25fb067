// Signing in and out, and registration where it is open (spec section 7, /auth/login, /auth/register, /auth/logout).
// The policy — throttling, the second factor, sessions — is server/sign-in's; these handlers read and answer.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LoginBody, RegisterBody } from '../../../contract/api';
import type { LoginResponse, MessageResponse, RegistrationStatusResponse } from '../../../contract/api';
import { TwoFactorLoginBody, type TwoFactorChallengeResponse } from '../../../contract/guard';
import { revokeSession } from '../../db/repositories/sessions';
import { audit } from '../../audit/audit';
import { issueToken } from '../../sign-in';
import { forbidden } from '../plugins/http-error';
import { ChallengeAnswer, LoginAnswer, MessageAnswer, RegistrationAnswer } from '../plugins/response-schemas';
import { createAccount } from '../users/create-account';
import { loadPublicUser } from '../users/load-public-user';

export const REGISTRATION_DISABLED = 'Registration is disabled. Ask an admin to create your account.';

export const signInRoutes: FastifyPluginAsyncZod = async (app) => {
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
      const answer = await app.signIn.withPassword(request, request.body.username, request.body.password);
      if ('challenge' in answer)
        return {
          success: true,
          twoFactorRequired: true,
          challenge: answer.challenge,
          message: 'Enter the code from your authenticator app',
        };
      const user = await loadPublicUser(app.db, answer.user);
      return { success: true, user, token: answer.token, message: 'Login successful' };
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
      const signedIn = await app.signIn.withCode(request, request.body.challenge, request.body.code);
      const user = await loadPublicUser(app.db, signedIn.user);
      return { success: true, user, token: signedIn.token, message: 'Login successful' };
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
};
