// AES-256-GCM for venue credentials at rest. Stored form: base64 of iv (12 bytes) | auth tag (16 bytes) | ciphertext.
// A fresh random IV per value; the tag makes tampering or a wrong key fail loudly instead of yielding garbage.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

export function decryptSecret(key: Buffer, stored: string): string {
  const bytes = Buffer.from(stored, 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('Encrypted value is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
