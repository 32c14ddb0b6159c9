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

  /**
   * The same error naming the argument it is about in `details.field`: for a check (a workspace
   * path's) that does not know which argument its input came from.
   */
  about(field: string): GatewayError {
    const { retryable, retryAfterMs, attempts } = this;
    return new GatewayError(this.code, this.message, {
      retryable, cause: this, details: { ...this.details, field },
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}), ...(attempts !== undefined ? { attempts } : {}),
    });
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

/** Runs `work`; an invalid_input it throws names `field`, the argument its input came from. */
export async function aboutArgument<T>(field: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof GatewayError && error.code === 'invalid_input' ? error.about(field) : error;
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
