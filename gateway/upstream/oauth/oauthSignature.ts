import type { RemoteServerConfig } from '../../../catalog/index.js';
import { canonicalJson, sha256Hex } from '../../core/index.js';

/**
 * The configuration a login belongs to: URL, transport, auth mode and OAuth settings. Any change
 * makes a new signature, and a login saved under another signature is never used again.
 */
export function oauthSignature(config: Pick<RemoteServerConfig, 'url' | 'transport' | 'auth'>): string {
  return sha256Hex(Buffer.from(canonicalJson({ url: config.url, transport: config.transport, auth: config.auth }), 'utf8'));
}
