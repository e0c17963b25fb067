// Keys the server generates on first start and keeps in DATA_DIR, readable by the owner only (mode 0600).
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir } from './data-dir';

export interface ServerSecrets {
  /** HS256 key that signs session tokens. */
  tokenKey: Uint8Array;
  /** AES-256-GCM key for venue credentials. */
  encryptionKey: Buffer;
}

export const TOKEN_KEY_FILE = 'token-signing.key';
export const ENCRYPTION_KEY_FILE = 'credential-encryption.key';

/**
 * Reads a 32-byte key from `file` (hex), creating it when missing. The exclusive create flag means two processes
 * starting together on one data directory cannot end up with different keys: the loser reads the winner's file.
 */
export function loadOrCreateKey(dataDir: string, file: string): Buffer {
  const dir = makePrivateDir(dataDir);
  const path = join(dir, file);
  try {
    writeFileSync(path, randomBytes(32).toString('hex') + '\n', { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Tighten an existing file too, in case it was copied in with a looser mode.
  chmodSync(path, 0o600);
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
  if (key.length !== 32)
    throw new Error(`${path} does not hold a 32-byte hex key; delete it to have a new one generated`);
  return key;
}

export function loadSecrets(
  dataDir: string,
  configuredEncryptionKey: Buffer | undefined,
  configuredTokenKey?: Buffer,
): ServerSecrets {
  return {
    tokenKey: new Uint8Array(configuredTokenKey ?? loadOrCreateKey(dataDir, TOKEN_KEY_FILE)),
    encryptionKey: configuredEncryptionKey ?? loadOrCreateKey(dataDir, ENCRYPTION_KEY_FILE),
  };
}
