// /auth/*: signing in and out (sign-in.ts) and the caller's own account (account.ts). Two-factor enrolment is in
// http/two-factor; the policy behind all of them in server/sign-in.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountRoutes } from './account';
import { signInRoutes } from './sign-in';

export { REGISTRATION_DISABLED } from './sign-in';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(signInRoutes);
  await app.register(accountRoutes);
};
