import { boundText, type ErrorCode } from '../../catalog/index.js';

/** Longest message a client ever sees; provider and upstream texts are cut to this. */
export const MAX_ERROR_MESSAGE_CHARS = 500;

export interface GatewayErrorOptions {
  retryable?: boolean;
  retryAfterMs?: number;
  attempts?: number;
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** The one error type of scigate: every failure becomes one of these before it reaches an edge. */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  retryAfterMs?: number;
  attempts?: number;
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: GatewayErrorOptions = {}) {
    super(boundText(message, MAX_ERROR_MESSAGE_CHARS), { cause: options.cause });
    this.name = 'GatewayError';
    this.code = code;
    this.retryable = options.retryable ?? false;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.attempts !== undefined) this.attempts = options.attempts;
    if (options.details !== undefined) this.details = options.details;
  }

  /** The wire shape: no stack, no cause. */
  toJSON(): WireError {
    const wire: WireError = {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      attempts: this.attempts ?? 0,
    };
    if (this.retryAfterMs !== undefined) wire.retryAfterMs = this.retryAfterMs;
    if (this.details !== undefined) wire.details = this.details;
    return wire;
  }

  /** Wraps anything thrown; unknown errors become `internal` without leaking their text. */
  static from(error: unknown): GatewayError {
    if (error instanceof GatewayError) return error;
    if (isAbortError(error)) return new GatewayError('cancelled', 'The call was cancelled.', { cause: error });
    return new GatewayError('internal', 'Internal gateway error; see the gateway log for details.', {
      cause: error,
    });
  }
}

/**
 * Runs `work`; an invalid_input it throws names `field` (`details.field`), the argument its input
 * came from: for a check that cannot know it (a workspace path's serves downloads, extraction, uploads).
 */
export async function aboutArgument<T>(field: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof GatewayError) || error.code !== 'invalid_input') throw error;
    throw new GatewayError(error.code, error.message, { retryable: error.retryable, cause: error, details: { ...error.details, field } });
  }
}

export interface WireError {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  attempts: number;
  retryAfterMs?: number;
  details?: Record<string, unknown>;
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
