import { randomBytes, randomUUID } from 'node:crypto';

/** Produces unique ids; injected so tests can make them predictable. */
export type NewId = (prefix: string) => string;

/** Random ids like `inv_8f3c…`: a readable prefix plus 128 random bits. */
export const randomId: NewId = (prefix) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

/** Hex of `bytes` random bytes. */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
