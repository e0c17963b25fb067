// Where web push may go. A push endpoint is a URL any signed-in user hands the server, which then POSTs to it on
// every notification: left unchecked, that lets a user aim the server at itself or its network (127.0.0.1, [::1],
// 2130706433, 10.x, 169.254.169.254, ...). So an endpoint must be https, carry no credentials, and resolve only to
// public unicast addresses; it is checked when it is registered and again before every send (DNS can change), and the
// request goes to the very address that was checked (the connection's DNS lookup is answered with it), so a name that
// resolves differently a moment later cannot redirect it. Redirects are not followed.
import { lookup } from 'node:dns/promises';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** Every address a host name resolves to (the system resolver, as a connection would use it). */
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: ResolveHost = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** Public unicast only: not loopback, private, link-local, shared, multicast, reserved, nor IPv6 that embeds them. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it is.
  return ipaddr.process(address).range() === 'unicast';
}

export interface EgressOptions {
  resolve?: ResolveHost;
  /** Which resolved addresses may be reached; public unicast addresses only unless a test says otherwise. */
  isAllowed?: (address: string) => boolean;
  /** Extra certificate authorities to trust (a test's local push service). */
  ca?: string | Buffer;
}

/** Why an endpoint is refused: `credentials` and `address` are the user's to fix; `unresolved` may be passing. */
export type EndpointRefusal = 'not-https' | 'credentials' | 'address' | 'unresolved';

export interface PushTarget {
  url: URL;
  /** The checked address the request is sent to. */
  address: string;
  family: 4 | 6;
}

export type EndpointCheck = { ok: true; target: PushTarget } | { ok: false; refusal: EndpointRefusal };

export interface Egress {
  check(endpoint: string): Promise<EndpointCheck>;
  /** POSTs to the checked address of `target`; answers the push service's status. */
  post(target: PushTarget, details: OutgoingPush, timeoutMs: number): Promise<number>;
}

export interface OutgoingPush {
  method: string;
  headers: Record<string, string | number>;
  body: Buffer | null;
}

/** Push services answer a few bytes; a longer answer is not read. */
const MAX_ANSWER_BYTES = 16 * 1024;

export function createEgress(options: EgressOptions = {}): Egress {
  const resolve = options.resolve ?? systemResolver;
  const isAllowed = options.isAllowed ?? isPublicAddress;

  async function check(endpoint: string): Promise<EndpointCheck> {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      return { ok: false, refusal: 'not-https' };
    }
    if (url.protocol !== 'https:') return { ok: false, refusal: 'not-https' };
    if (url.username !== '' || url.password !== '') return { ok: false, refusal: 'credentials' };
    // The WHATWG parser has already turned 2130706433, 0x7f.1 and 127.1 into 127.0.0.1; IPv6 comes bracketed.
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: ResolvedAddress[];
    if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
    else {
      try {
        addresses = await resolve(host);
      } catch {
        return { ok: false, refusal: 'unresolved' };
      }
    }
    const [first] = addresses;
    if (!first) return { ok: false, refusal: 'unresolved' };
    // Every address the name has must be allowed: a name listing a public and a private address is refused.
    if (!addresses.every((a) => isAllowed(a.address))) return { ok: false, refusal: 'address' };
    return { ok: true, target: { url, address: first.address, family: first.family === 6 ? 6 : 4 } };
  }

  function post(target: PushTarget, details: OutgoingPush, timeoutMs: number): Promise<number> {
    const { url, address, family } = target;
    // The connection asks for the host's address once; it gets the one that was checked, whatever DNS says now.
    const pinned = ((_host: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      if (lookupOptions.all) callback(null, [{ address, family }]);
      else callback(null, address, family);
    }) as LookupFunction;
    return new Promise((resolvePost, reject) => {
      const req = httpsRequest(
        {
          protocol: 'https:',
          hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: url.port === '' ? 443 : Number(url.port),
          path: `${url.pathname}${url.search}`,
          method: details.method,
          headers: details.headers,
          lookup: pinned,
          agent: false,
          timeout: timeoutMs,
          ...(options.ca && { ca: options.ca }),
        },
        (res) => {
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_ANSWER_BYTES) res.destroy();
          });
          res.on('close', () => resolvePost(res.statusCode ?? 0));
          res.on('error', () => resolvePost(res.statusCode ?? 0));
        },
      );
      req.on('timeout', () => req.destroy(new Error('push service timed out')));
      req.on('error', reject);
      req.end(details.body ?? undefined);
    });
  }

  return { check, post };
}
