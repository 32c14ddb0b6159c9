import { GatewayError } from '../gateway/core/index.js';

/** A write that could not be made durable: `storage_unavailable`, retryable, with why in words. */
export function storageUnavailable(cause?: unknown, reason = 'disk full or failing'): GatewayError {
  return new GatewayError('storage_unavailable', `The gateway cannot store data durably right now (${reason}); nothing was kept. Retry later.`, {
    retryable: true,
    cause,
  });
}
