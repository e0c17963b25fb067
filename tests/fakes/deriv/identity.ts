// Who may do what on the fake's new API, as Deriv's pages state it (authentication.md, get-accounts.md,
// websocket.md, errors.md, api-overview.md): personal access tokens made for one app (its app id sent as
// Deriv-App-ID, 401 "Deriv-App-ID header is required for PAT tokens" without it), the `trade` scope the account list
// and the OTP call need (403 without it), 60 REST requests a minute per token (429), and one-time passwords that open
// one connection each and expire.
import { randomBytes } from 'node:crypto';
import type { DerivMarket, FakeDerivPat } from './market';

export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export interface IssuedOtp {
  accountId: string;
  type: 'demo' | 'real';
  /** The token that asked for it: its owner's connections are counted together. */
  owner: string;
  expiresAt: number;
  used: boolean;
}

export class FakeIdentity {
  private readonly pats = new Map<string, FakeDerivPat>();
  private readonly otps = new Map<string, IssuedOtp>();
  private readonly restTimes = new Map<string, number[]>();
  /** Every app id a PAT was made for: the new API's registered apps. */
  readonly appIds = new Set<string>();

  constructor(
    private readonly market: DerivMarket,
    readonly otpTtlMs: number,
    private readonly restPerMinute: number,
  ) {}

  addPat(pat: FakeDerivPat): void {
    this.pats.set(pat.token, pat);
    this.appIds.add(pat.appId);
    pat.accounts.forEach((a) => this.market.addOptionsAccount(a));
  }

  revoke(token: string): void {
    this.pats.delete(token);
  }

  /** The PAT a REST request authenticates with, or the refusal Deriv gives. */
  authenticate(authorization: string | undefined, appId: string | undefined): FakeDerivPat {
    const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    if (!token) throw new RestError(401, 'Unauthorized', 'Authorization header with a Bearer token is required');
    this.countRequest(token);
    const pat = this.pats.get(token);
    if (!pat) throw new RestError(401, 'InvalidToken', 'The token is invalid or has expired');
    if (!appId) throw new RestError(401, 'Unauthorized', 'Deriv-App-ID header is required for PAT tokens');
    if (!this.appIds.has(appId)) throw new RestError(401, 'Unauthorized', 'The app ID is not registered');
    if (appId !== pat.appId) throw new RestError(401, 'Unauthorized', 'The token was not issued for this app');
    if (!(pat.scopes ?? ['trade']).includes('trade'))
      throw new RestError(403, 'Forbidden', 'The token does not have the scope this endpoint requires: trade');
    return pat;
  }

  issueOtp(pat: FakeDerivPat, accountId: string): { otp: string; issued: IssuedOtp } {
    if (!pat.accounts.some((a) => a.accountId === accountId))
      throw new RestError(400, 'ValidationError', `Account ${accountId} is not one of this token's accounts`);
    const account = this.market.byLogin(accountId);
    if (account.status !== 'active') throw new RestError(400, 'ValidationError', `Account ${accountId} is inactive`);
    const otp = randomBytes(24).toString('hex');
    const issued: IssuedOtp = {
      accountId,
      type: account.type,
      owner: pat.token,
      expiresAt: Date.now() + this.otpTtlMs,
      used: false,
    };
    this.otps.set(otp, issued);
    return { otp, issued };
  }

  /** An OTP opens one connection, to the gateway of its account's type, before it expires; null otherwise. */
  consumeOtp(otp: string | null, gateway: string): IssuedOtp | null {
    const issued = otp === null ? undefined : this.otps.get(otp);
    if (!issued || issued.used || issued.expiresAt < Date.now() || issued.type !== gateway) return null;
    issued.used = true;
    return issued;
  }

  expireOtps(): void {
    for (const issued of this.otps.values()) issued.expiresAt = 0;
  }

  otpCount(): number {
    return this.otps.size;
  }

  /** 60 requests in any minute per token (api-overview.md). */
  private countRequest(token: string): void {
    const now = Date.now();
    const times = (this.restTimes.get(token) ?? []).filter((t) => t > now - 60_000);
    if (times.length >= this.restPerMinute) {
      const retry = Math.ceil(((times[0] ?? now) + 60_000 - now) / 1000);
      throw new RestError(429, 'RateLimit', 'Too many requests: at most 60 a minute per token', retry);
    }
    times.push(now);
    this.restTimes.set(token, times);
  }
}
