// The fake's REST API under https://api.derivws.com (here http://127.0.0.1:port): the token's Options accounts
// (get-accounts.md) and a one-time-password WebSocket URL for one of them (websocket.md), answering
// {data, meta: {endpoint, method, timing}} or {errors: [{status, code, message}], meta} (errors.md).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RestError, type FakeIdentity } from './identity';
import type { DerivMarket } from './market';

/** What the fake saw of a REST request, for tests: never the token. */
export interface RestRequest {
  method: string;
  path: string;
  appId: string | null;
  status: number;
}

const OTP_PATH = /^\/trading\/v1\/options\/accounts\/([^/]+)\/otp$/;

export function restHandler(
  market: DerivMarket,
  identity: FakeIdentity,
  wsBase: () => string,
  log: RestRequest[],
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const appId = req.headers['deriv-app-id'];
    const meta = () => ({ endpoint: url.pathname, method, timing: Date.now() - started });
    const answer = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
      log.push({ method, path: url.pathname, appId: typeof appId === 'string' ? appId : null, status });
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    };
    try {
      const otpPath = OTP_PATH.exec(url.pathname);
      if (url.pathname === '/trading/v1/options/accounts') {
        if (method !== 'GET') throw new RestError(405, 'MethodNotAllowed', `${method} is not allowed here`);
        const pat = identity.authenticate(req.headers.authorization, appIdOf(appId));
        const data = pat.accounts.map((a) => {
          const state = market.byLogin(a.accountId);
          return {
            account_id: state.loginid,
            balance: state.balance.toDecimalPlaces(2).toNumber(),
            currency: state.currency,
            group: state.group,
            status: state.status,
            account_type: state.type,
          };
        });
        return answer(200, { data, meta: meta() });
      }
      if (otpPath) {
        if (method !== 'POST') throw new RestError(405, 'MethodNotAllowed', `${method} is not allowed here`);
        const pat = identity.authenticate(req.headers.authorization, appIdOf(appId));
        const { otp, issued } = identity.issueOtp(pat, decodeURIComponent(otpPath[1] ?? ''));
        return answer(200, {
          data: { url: `${wsBase()}/trading/v1/options/ws/${issued.type}?otp=${otp}` },
          meta: meta(),
        });
      }
      throw new RestError(404, 'NotFound', `No endpoint ${method} ${url.pathname}`);
    } catch (error) {
      const e = error instanceof RestError ? error : new RestError(500, 'InternalError', String(error));
      answer(
        e.status,
        { errors: [{ status: e.status, code: e.code, message: e.message }], meta: meta() },
        e.retryAfterSeconds ? { 'retry-after': String(e.retryAfterSeconds) } : {},
      );
    }
  };
}

const appIdOf = (header: string | string[] | undefined): string | undefined =>
  typeof header === 'string' && header !== '' ? header : undefined;
