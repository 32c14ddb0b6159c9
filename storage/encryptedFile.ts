import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const MAGIC = Buffer.from('scigate-aes-256-gcm-v1\n', 'utf8');
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts with AES-256-GCM: magic | iv | tag | ciphertext. `label` (the file name) is bound as
 * additional data, so one encrypted file cannot be passed off as another.
 */
export function encryptFile(key: Buffer, plaintext: string, label: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(label, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([MAGIC, iv, cipher.getAuthTag(), ciphertext]);
}

/** Decrypts what `encryptFile` wrote; undefined when the key, label or bytes do not match. */
export function decryptFile(key: Buffer, data: Buffer, label: string): string | undefined {
  if (data.length < MAGIC.length + IV_BYTES + TAG_BYTES || !data.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const iv = data.subarray(MAGIC.length, MAGIC.length + IV_BYTES);
  const tag = data.subarray(MAGIC.length + IV_BYTES, MAGIC.length + IV_BYTES + TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(label, 'utf8'));
    decipher.setAuthTag(tag);
    const body = data.subarray(MAGIC.length + IV_BYTES + TAG_BYTES);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
