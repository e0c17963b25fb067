// A push service on loopback for tests: HTTPS (web-push speaks nothing else) with a certificate made for the run,
// devices with their own P-256 keys and auth secrets, and the receiving side of RFC 8291 (aes128gcm) and RFC 8292
// (VAPID) written from the RFCs with node:crypto, so the server's encryption is checked by an independent decoder.
import { execFileSync } from 'node:child_process';
import { createDecipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, importJWK, jwtVerify } from 'jose';

export interface Device {
  id: string;
  ecdh: ECDH;
  auth: Buffer;
  /** PushSubscription.toJSON() as a browser would send it. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
}

export interface Delivery {
  deviceId: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A name the endpoint's certificate also holds, for tests that resolve it themselves (nothing else resolves it). */
export const PUSH_HOST = 'push.example.test';

export interface PushEndpoint {
  url: string;
  port: number;
  /** The endpoint's certificate, to be trusted by the push service (EgressOptions.ca). */
  ca: Buffer;
  deliveries: Delivery[];
  /** A new device whose endpoint is on this push service (by default at `url`, or named by another origin). */
  device(origin?: string): Device;
  /** The push service answers this status for the device from now on (410: subscription gone). */
  answer(deviceId: string, status: number): void;
  /** Resolves with the next delivery to the device. */
  next(deviceId: string): Promise<Delivery>;
  close(): Promise<void>;
}

const b64url = (buf: Buffer) => buf.toString('base64url');

export async function startPushEndpoint(): Promise<PushEndpoint> {
  const dir = mkdtempSync(join(tmpdir(), 'push-endpoint-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      `subjectAltName=IP:127.0.0.1,DNS:${PUSH_HOST}`,
    ],
    { stdio: 'ignore' },
  );
  const key = readFileSync(join(dir, 'key.pem'));
  const cert = readFileSync(join(dir, 'cert.pem'));
  rmSync(dir, { recursive: true, force: true });

  const deliveries: Delivery[] = [];
  const statuses = new Map<string, number>();
  const waiters = new Map<string, Array<(d: Delivery) => void>>();
  const server: Server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const deviceId = (req.url ?? '').replace(/^\/push\//, '');
      const delivery = { deviceId, headers: req.headers, body: Buffer.concat(chunks) };
      deliveries.push(delivery);
      for (const wake of waiters.get(deviceId) ?? []) wake(delivery);
      waiters.delete(deviceId);
      res.writeHead(statuses.get(deviceId) ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const url = `https://127.0.0.1:${port}`;
  let n = 0;

  return {
    url,
    port,
    ca: cert,
    deliveries,
    device(origin = url) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const id = `device-${++n}`;
      return {
        id,
        ecdh,
        auth,
        subscription: {
          endpoint: `${origin}/push/${id}`,
          keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) },
        },
      };
    },
    answer: (deviceId, status) => void statuses.set(deviceId, status),
    next: (deviceId) =>
      new Promise((resolve) => {
        const list = waiters.get(deviceId) ?? [];
        list.push(resolve);
        waiters.set(deviceId, list);
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** RFC 8291 section 3.4 and RFC 8188: the one-record aes128gcm body as the user agent decrypts it. */
export function decryptPayload(device: Device, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const serverPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (record.length > recordSize) throw new Error('more than one record');
  const shared = device.ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.ecdh.getPublicKey(), serverPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, device.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 followed by zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('missing last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`; the JWT must verify with that key and name the endpoint's origin. */
export async function verifyVapid(
  delivery: Delivery,
  endpointOrigin: string,
): Promise<{ publicKey: string; subject: string; expiresIn: number }> {
  const header = String(delivery.headers.authorization ?? '');
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(header);
  if (!match) throw new Error(`not a VAPID authorization: ${header}`);
  const [, token = '', publicKey = ''] = match;
  const point = Buffer.from(publicKey, 'base64url');
  const jwk = { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33, 65)) };
  await jwtVerify(token, await importJWK(jwk, 'ES256'), { audience: endpointOrigin });
  const claims = decodeJwt(token);
  return { publicKey, subject: String(claims.sub), expiresIn: Number(claims.exp) - Date.now() / 1000 };
}
