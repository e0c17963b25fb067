// What the backup and restore commands share: the server's own configuration (the same environment as `npm start`,
// so DATA_DIR and DATABASE_URL mean the same), messages for the operator, and sizes and times in words.
import { ConfigError, loadConfig, type Config } from '../../config';

/** Prints the message and ends the command with exit code 1. */
export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

export function configOrExit(env: Record<string, string | undefined>): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

export const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The key files beside the database in DATA_DIR that a backup deliberately leaves out (README, Operations). */
export const KEY_FILES_NOTE =
  'The backup holds venue credentials and two-factor secrets encrypted, never the key: keep DATA_DIR/credential-encryption.key ' +
  '(or your ENCRYPTION_KEY) with it, somewhere else than the backup; token-signing.key and vapid-keys.json too, or ' +
  'everyone signs in again and re-enables notifications after a restore.';
