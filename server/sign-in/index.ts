// The sign-in policy in one place: how a password and a second factor are checked and throttled, when sessions are
// opened and ended, and what a user may change about how they sign in. The HTTP handlers (http/auth,
// http/two-factor) only read the request and shape the answer; they call `app.signIn`, which buildApp decorates.
//
//   const answer = await app.signIn.withPassword(request, login, password);  // SignedIn | { challenge }
//   const signedIn = await app.signIn.withCode(request, challenge, code);
//
// A refusal is thrown as a Refusal (refusal.ts): 401/403 for credentials, 429 with Retry-After for a throttle.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimiterAbstract } from '../security/rate-limiter';
import type { ProfileBody } from '../../contract/api';
import type { UserRow } from '../db/schema';
import type { LoginLimiter } from './attempts';
import type { SecondFactor } from './codes';
import { changePassword, saveProfile } from './identity';
import { confirmEnrolment, resetByAdmin, startEnrolment, turnOff, type Enrolment } from './second-factor';
import { codeStep, passwordStep, type PasswordAnswer, type SignedIn } from './steps';

export { createCounters, createLoginLimiter, DEFAULT_LOGIN_LIMITS, type Counters, type LoginLimits } from './attempts';
export { identityChangeLimiter, IDENTITY_CHANGES_PER_HOUR } from './identity';
export { Refusal } from './refusal';
export { ADMIN_KEEPS_2FA, twoFactorStatus } from './second-factor';
export { issueToken } from './sessions';
export { DEACTIVATED, INVALID_LOGIN, type PasswordAnswer, type SignedIn } from './steps';

export interface SignIn {
  /** The password step: signed in, or (two-factor sign-in) a challenge for the code step. */
  withPassword(request: FastifyRequest, login: string, password: string): Promise<PasswordAnswer>;
  /** The code step, with the challenge the password step answered. */
  withCode(request: FastifyRequest, challenge: string, code: string): Promise<SignedIn>;
  startEnrolment(request: FastifyRequest): Promise<Enrolment>;
  /** Answers the recovery codes, shown only this once; ends the caller's other sessions. */
  confirmEnrolment(request: FastifyRequest, code: string): Promise<string[]>;
  /** Ends the caller's other sessions. */
  turnOff(request: FastifyRequest, code: string): Promise<SecondFactor>;
  /** An admin's reset of a user's second factor; ends that user's sessions. */
  resetSecondFactor(request: FastifyRequest, userId: string): Promise<UserRow>;
  saveProfile(request: FastifyRequest, body: ProfileBody): Promise<UserRow>;
  /** Ends every session of the caller; answers a fresh token. */
  changePassword(request: FastifyRequest, passwords: { currentPassword: string; newPassword: string }): Promise<string>;
}

export interface SignInLimits {
  /** Failed passwords and codes per account and address (attempts.ts). */
  attempts: LoginLimiter;
  /** Changes of username or e-mail per user (identity.ts). */
  identityChanges: RateLimiterAbstract;
}

export function createSignIn(app: FastifyInstance, limits: SignInLimits): SignIn {
  const { attempts } = limits;
  return {
    withPassword: (request, login, password) => passwordStep(app, request, attempts, login, password),
    withCode: (request, challenge, code) => codeStep(app, request, attempts, challenge, code),
    startEnrolment: (request) => startEnrolment(app, request),
    confirmEnrolment: (request, code) => confirmEnrolment(app, request, attempts, code),
    turnOff: (request, code) => turnOff(app, request, attempts, code),
    resetSecondFactor: (request, userId) => resetByAdmin(app, request, userId),
    saveProfile: (request, body) => saveProfile(app, request, limits.identityChanges, body),
    changePassword: (request, passwords) => changePassword(app, request, attempts, passwords),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The sign-in policy (server/sign-in). */
    signIn: SignIn;
  }
}
