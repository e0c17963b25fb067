// Deriv's REST API (api-overview.md, authentication.md): the Options accounts a token reaches (get-accounts.md) and
// a one-time-password WebSocket URL for one of them (websocket.md). A bearer token, plus Deriv-App-ID for a personal
// access token; errors come as {errors: [{status, code, message}], meta}. Deriv allows 60 requests a minute per
// token: each token's requests wait for their turn within that. Neither the token nor the URL answered is ever put
// into a message.
import { createHash } from 'node:crypto';
import type { DerivAccountInfo } from '../../../contract/deriv';
import { SlidingWindows, WindowFullError } from '../rate-window';
import { DerivConnectionError } from './client';

/** Deriv answered a REST call with an error status. */
export class DerivRestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'DerivRestError';
  }
}

export interface DerivRestCredentials {
  token: string;
  /** Sent as Deriv-App-ID; a personal access token needs it. */
  appId?: string;
}

export interface DerivRestOptions {
  /** https://api.derivws.com (DERIV_API_URL). */
  baseUrl: string;
  timeoutMs?: number;
  /** Requests per minute per token: Deriv's 60 by default. */
  perMinute?: number;
}

const ACCOUNT_TYPES = new Set(['demo', 'real']);
/** Longest a REST call waits for its turn within the per-token rate before it is refused as rate-limited. */
const MAX_WAIT_MS = 10_000;

export class DerivRest {
  private readonly windows: SlidingWindows;

  constructor(private readonly options: DerivRestOptions) {
    this.windows = new SlidingWindows(options.perMinute ?? 60, 60_000);
  }

  /** GET /trading/v1/options/accounts: the token's Options accounts. */
  async accounts(credentials: DerivRestCredentials): Promise<DerivAccountInfo[]> {
    const body = await this.call('GET', '/trading/v1/options/accounts', credentials);
    const data = (body as { data?: unknown }).data;
    if (!Array.isArray(data)) throw new DerivConnectionError('Deriv answered the account list without data');
    return data.map((raw: Record<string, unknown>) => {
      const type = String(raw['account_type']);
      return {
        accountId: String(raw['account_id']),
        type: ACCOUNT_TYPES.has(type) ? (type as DerivAccountInfo['type']) : 'real',
        currency: String(raw['currency']),
        balance: Number(raw['balance'] ?? 0),
        status: raw['status'] === 'inactive' ? 'inactive' : 'active',
      };
    });
  }

  /** POST /trading/v1/options/accounts/{accountId}/otp: a WebSocket URL that opens one connection to that account. */
  async otpUrl(credentials: DerivRestCredentials, accountId: string): Promise<string> {
    const body = await this.call(
      'POST',
      `/trading/v1/options/accounts/${encodeURIComponent(accountId)}/otp`,
      credentials,
    );
    const url = (body as { data?: { url?: unknown } }).data?.url;
    if (typeof url !== 'string' || !/^wss?:\/\//.test(url))
      throw new DerivConnectionError('Deriv answered the one-time-password request without a WebSocket URL');
    return url;
  }

  private async call(method: 'GET' | 'POST', path: string, credentials: DerivRestCredentials): Promise<unknown> {
    // A call waits a little for its turn within Deriv's rate; one that would wait longer is refused as rate-limited.
    try {
      await this.windows.take(createHash('sha256').update(credentials.token).digest('hex'), MAX_WAIT_MS);
    } catch (error) {
      const retry = error instanceof WindowFullError ? error.retryAfterMs : undefined;
      throw new DerivRestError(429, 'RateLimit', 'at most 60 requests a minute per token', retry);
    }
    const headers: Record<string, string> = {
      authorization: `Bearer ${credentials.token}`,
      accept: 'application/json',
    };
    if (credentials.appId) headers['deriv-app-id'] = credentials.appId;
    // authentication.md: Content-Type: application/json for POST; the OTP call itself has no fields, hence {}.
    if (method === 'POST') headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(new URL(path, this.options.baseUrl), {
        method,
        headers,
        ...(method === 'POST' && { body: '{}' }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
      });
    } catch (error) {
      const why = error instanceof Error && error.name === 'TimeoutError' ? 'no answer in time' : 'cannot connect';
      throw new DerivConnectionError(`Cannot reach Deriv's API (${why})`);
    }
    const text = await response.text().catch(() => '');
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (response.ok) return body;
    const first = (body as { errors?: { code?: unknown; message?: unknown }[] } | null)?.errors?.[0];
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new DerivRestError(
      response.status,
      typeof first?.code === 'string' ? first.code : `HTTP${response.status}`,
      typeof first?.message === 'string' ? first.message : response.statusText || `status ${response.status}`,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
    );
  }
}
