import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { venueCredentials } from '../../../server/db/schema';
import { decryptSecret, encryptSecret } from '../../../server/security/encryption';
import { ENCRYPTION_KEY_FILE, TOKEN_KEY_FILE } from '../../../server/security/secrets';
import { backends, createTestApp, type TestApp } from '../helpers/app';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

describe('AES-256-GCM', () => {
  it('round-trips, uses a fresh IV each time and rejects tampering or a wrong key', () => {
    const key = randomBytes(32);
    const a = encryptSecret(key, 'my secret value');
    const b = encryptSecret(key, 'my secret value');
    expect(a).not.toBe(b);
    expect(decryptSecret(key, a)).toBe('my secret value');
    const tampered = Buffer.from(a, 'base64');
    tampered[tampered.length - 1]! ^= 1;
    expect(() => decryptSecret(key, tampered.toString('base64'))).toThrow();
    expect(() => decryptSecret(randomBytes(32), a)).toThrow();
  });
});

describe.each(backends)('venue credentials on %s', (backend) => {
  let t: TestApp;
  const marker = `PLANTED${randomBytes(8).toString('hex')}`;
  const keys = {
    binanceApiKey: `bk${marker}wxyz`,
    binanceSecretKey: `bs${marker}s3cr`,
    derivToken: `dt-${marker}-tokn`,
    derivAppId: '1089',
  };
  const responses: string[] = [];
  let username = '';
  const call = async (...args: Parameters<TestApp['request']>) => {
    const res = await t.request(...args);
    responses.push(JSON.stringify(res.headers), res.body);
    return res;
  };

  beforeAll(async () => {
    t = await createTestApp(backend, { env: { LOG_LEVEL: 'trace' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores keys encrypted, answers only masks, and decrypts them for the engine', async () => {
    const u = await t.createUser({ username: `control${marker.slice(7, 15)}` });
    username = u.user.username;
    const saved = await call('PUT', `/api/users/${u.user._id}/api-keys`, { token: u.token, body: keys });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      success: true,
      message: 'API keys updated successfully',
      user: {
        // The public API key shows its last 4 characters; nothing of a secret is shown, only that it is saved.
        binanceApiKey: '••••wxyz',
        binanceSecretKey: '••••',
        derivToken: '••••',
        derivAppId: '1089',
        hasBinanceApiKey: true,
        hasBinanceSecretKey: true,
        hasDerivToken: true,
      },
    });

    const [row] = await t.db.select().from(venueCredentials).where(eq(venueCredentials.userId, u.user._id));
    expect(row).toBeDefined();
    // Nor is any part of a secret kept in clear for display.
    expect(row).toMatchObject({ binanceApiKeyLast4: 'wxyz', binanceSecretKeyLast4: null, derivTokenLast4: null });
    for (const column of [row!.binanceApiKeyEnc, row!.binanceSecretKeyEnc, row!.derivTokenEnc]) {
      expect(column).toBeTruthy();
      expect(column).not.toContain(marker);
      expect(Buffer.from(column!, 'base64').toString('latin1')).not.toContain(marker);
    }
    expect(decryptSecret(t.app.secrets.encryptionKey, row!.derivTokenEnc!)).toBe(keys.derivToken);
    const loaded = await t.app.loadVenueAccount(u.user._id);
    expect(loaded).toEqual({ userId: u.user._id, credentials: keys, remember: expect.any(Function) });

    // Omitted = unchanged, '' = removed.
    const removed = await call('PUT', `/api/users/${u.user._id}/api-keys`, {
      token: u.token,
      body: { derivToken: '' },
    });
    expect(removed.json().user).toMatchObject({ derivToken: '', hasDerivToken: false, binanceApiKey: '••••wxyz' });
    expect((await t.app.loadVenueAccount(u.user._id)).credentials).toEqual({
      binanceApiKey: keys.binanceApiKey,
      binanceSecretKey: keys.binanceSecretKey,
      derivAppId: '1089',
    });
    await call('PUT', `/api/users/${u.user._id}/api-keys`, { token: u.token, body: { derivToken: keys.derivToken } });

    // Every other way the record can be read.
    await call('GET', '/api/auth/profile', { token: u.token });
    await call('POST', '/api/auth/login', { body: { username: u.user.username, password: u.password } });
    await call('GET', '/api/admin/users', { token: t.admin.token });
    await call('PUT', `/api/users/${u.user._id}`, { token: u.token, body: { maxLoss: 10 } });
    // Bad input carrying the secret must not echo it back.
    await call('PUT', `/api/users/${u.user._id}/api-keys`, {
      token: u.token,
      body: { binanceApiKey: `has space ${marker}` },
    });
    await call('PUT', `/api/users/${u.user._id}/api-keys`, {
      token: u.token,
      body: { binanceApiKey: marker.repeat(40) },
    });
    await call('POST', '/api/auth/login', { body: { username: u.user.username, password: marker } });
    await call('PUT', `/api/users/${u.user._id}/api-keys`, {
      token: u.token,
      body: `{"binanceApiKey":"${marker}"`,
      headers: { 'content-type': 'application/json' },
    });
  });

  it('the planted secret appears in no response, no log line and no file of the data directory', async () => {
    // Code that logs a credential-bearing object by mistake is censored too.
    t.app.log.info(
      {
        binanceApiKey: marker,
        user: { derivToken: marker, password: marker },
        headers: { authorization: `Bearer ${marker}` },
      },
      'careless',
    );
    expect(t.logs.some((line) => line.includes('careless') && line.includes('[redacted]'))).toBe(true);
    expect(responses.length).toBeGreaterThan(10);
    for (const text of responses) expect(text).not.toContain(marker);
    expect(t.logs.length).toBeGreaterThan(10);
    for (const line of t.logs) expect(line).not.toContain(marker);
    const files = filesUnder(t.dataDir);
    expect(files.length).toBeGreaterThan(0);
    const contents = files.map((file) => [file, readFileSync(file)] as const);
    for (const [file, bytes] of contents) expect(bytes.includes(Buffer.from(marker)), file).toBe(false);
    // Control: data written in clear beside the secrets (the username) does reach these files, so the check above
    // is looking at the real database files and not at an empty directory.
    if (backend === 'pglite') expect(contents.some(([, bytes]) => bytes.includes(Buffer.from(username)))).toBe(true);
  });

  it('keeps the generated keys readable by the owner only', () => {
    for (const file of [TOKEN_KEY_FILE, ENCRYPTION_KEY_FILE]) {
      expect(statSync(join(t.dataDir, file)).mode & 0o777).toBe(0o600);
    }
  });

  it('uses ENCRYPTION_KEY when set and writes no key file for it', async () => {
    const key = randomBytes(32);
    const other = await createTestApp(backend, { env: { ENCRYPTION_KEY: key.toString('base64') } });
    try {
      expect(other.app.secrets.encryptionKey.equals(key)).toBe(true);
      expect(filesUnder(other.dataDir).some((f) => f.endsWith(ENCRYPTION_KEY_FILE))).toBe(false);
    } finally {
      await other.close();
    }
  });
});
