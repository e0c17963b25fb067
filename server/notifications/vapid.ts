// The VAPID key pair (RFC 8292) that identifies this server to push services. From VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY
// when set (every instance of a scale-out must share one pair, or subscriptions made through one instance are refused
// for the others); otherwise generated on first start into DATA_DIR, readable by the owner only, like the other keys.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type WebPush from 'web-push';
import { loadPackage } from '../lazy-package';
import type { Config } from '../config';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export const VAPID_KEY_FILE = 'vapid-keys.json';

export function loadVapidKeys(
  config: Pick<Config, 'dataDir' | 'vapidPublicKey' | 'vapidPrivateKey' | 'vapidSubject'>,
): VapidKeys {
  if (config.vapidPublicKey && config.vapidPrivateKey) {
    return { publicKey: config.vapidPublicKey, privateKey: config.vapidPrivateKey, subject: config.vapidSubject };
  }
  const dir = resolve(config.dataDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, VAPID_KEY_FILE);
  // Generated only when there is no pair yet: a start with one does not load web-push (server/lazy-package.ts).
  if (!existsSync(path)) {
    try {
      // Exclusive create: two processes starting together on one directory end up with the same pair.
      writeFileSync(path, `${JSON.stringify(loadPackage<typeof WebPush>('web-push').generateVAPIDKeys())}\n`, {
        flag: 'wx',
        mode: 0o600,
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  chmodSync(path, 0o600);
  const keys = JSON.parse(readFileSync(path, 'utf8')) as Partial<VapidKeys>;
  if (typeof keys.publicKey !== 'string' || typeof keys.privateKey !== 'string') {
    throw new Error(
      `${path} does not hold a VAPID key pair; delete it to have a new one generated (devices will need to subscribe again)`,
    );
  }
  return { publicKey: keys.publicKey, privateKey: keys.privateKey, subject: config.vapidSubject };
}
