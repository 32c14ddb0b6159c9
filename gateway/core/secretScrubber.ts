import { inspect } from 'node:util';
import { boundText } from '../../catalog/index.js';
/** What every configured secret value is replaced with, wherever it would leave the gateway. */
export const REDACTED = '[redacted]';

/**
 * Shorter values are not scrubbed: they would blank out ordinary words (a `DEBUG=1` env entry is
 * configuration, not a secret), and a real credential is longer.
 */
export const MIN_SECRET_CHARS = 6;

/** How many levels of JSON string escaping a secret is looked for in (a value in JSON text in a serialized result is two). */
const JSON_ESCAPE_LEVELS = 3;

/** A text stream (a child's stderr) scrubbed chunk by chunk, even when a secret spans two chunks. */
export interface ScrubbingStream {
  /** The scrubbed text that is safe to emit now; an end that may begin a secret (at most `longest secret − 1` characters) is held back. */
  push(chunk: string): string;
  /** The held-back rest, scrubbed (a secret cut off by the end of the stream is scrubbed too). */
  end(): string;
}

/**
 * The gateway's one secret scrubber: it knows every configured secret value (custom servers' env
 * and header values, credentials in their URLs, the admin token; OAuth tokens register here too)
 * and replaces each occurrence with `[redacted]` in whatever leaves through the admin API, the
 * logs, the audit and tool errors. Owners register a provider, read at each scrub, so a value
 * resolved from the environment at connect time is known as soon as it can be used.
 */
export class SecretScrubber {
  private readonly providers = new Map<string, () => readonly string[]>();

  /** Registers (or replaces) the secrets of one owner, e.g. a custom server id or `oauth:<server>`. */
  register(owner: string, secrets: () => readonly string[]): void {
    this.providers.set(owner, secrets);
  }

  /** Forgets an owner's secrets (its server was deleted). */
  forget(owner: string): void {
    this.providers.delete(owner);
  }

  /** The last answer of `secrets()` and the values it was made from: scrubbing runs on every call. */
  private forms: { values: string[]; forms: readonly string[] } = { values: [], forms: [] };

  /** Every form a secret may take in output, longest first (so a longer value wins over its own prefix). */
  secrets(): readonly string[] {
    const values: string[] = [];
    for (const provider of this.providers.values()) for (const value of provider()) if (value.length >= MIN_SECRET_CHARS) values.push(value);
    if (sameStrings(values, this.forms.values)) return this.forms.forms;
    const forms = new Set<string>();
    for (const value of values) {
      // Inside serialized JSON quotes and backslashes of a value are escaped, once per level: an
      // upstream's JSON text inside a result's string, serialized for the audit, escapes it twice.
      let form = value;
      for (let level = 0; level <= JSON_ESCAPE_LEVELS; level++, form = JSON.stringify(form).slice(1, -1)) forms.add(form);
      // As Node's errors quote a value they refuse (`Received 'sk-…\x00'`), control characters escaped.
      forms.add(inspect(value).slice(1, -1));
      // As an error message holds it (a PEM key's lines joined by spaces, controls escaped).
      forms.add(boundText(value, Number.MAX_SAFE_INTEGER));
    }
    // A form shortened past the minimum (a value mostly whitespace) would blank out ordinary words.
    this.forms = { values, forms: [...forms].filter((form) => form.length >= MIN_SECRET_CHARS).sort((a, b) => b.length - a.length) };
    return this.forms.forms;
  }

  /** The text with every secret replaced; a secret cut off at the end (a bounded message) is replaced too. */
  scrub(text: string): string {
    const secrets = this.secrets();
    return secrets.length === 0 ? text : scrubTruncatedTail(replaceAll(text, secrets), secrets);
  }

  /** A deep copy of a JSON-like value (or an Error) with every string scrubbed; returned as is when no secret is known. */
  scrubValue<T>(value: T): T {
    const secrets = this.secrets();
    return secrets.length === 0 ? value : (scrubDeep(value, secrets, 0) as T);
  }

  /** A scrubber for one text stream; the secrets are read at each chunk. */
  stream(): ScrubbingStream {
    let held = '';
    return {
      push: (chunk) => {
        const secrets = this.secrets();
        const text = replaceAll(held + chunk, secrets);
        const keep = secretPrefixAtEnd(text, secrets);
        held = text.slice(text.length - keep);
        return text.slice(0, text.length - keep);
      },
      end: () => {
        const rest = this.scrub(held);
        held = '';
        return rest;
      },
    };
  }
}

function replaceAll(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (result.includes(secret)) result = result.split(secret).join(REDACTED);
  return result;
}

/** How many characters at the end of the text could be the start of a secret the next chunk completes. */
function secretPrefixAtEnd(text: string, secrets: readonly string[]): number {
  let longest = 0;
  for (const secret of secrets) {
    for (let length = Math.min(secret.length - 1, text.length); length > longest; length--) {
      if (text.endsWith(secret.slice(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}

/** A message cut to its maximum length (`…`) or a stream that ended may stop mid-secret. */
function scrubTruncatedTail(text: string, secrets: readonly string[]): string {
  const ellipsis = text.endsWith('…') ? '…' : '';
  const body = ellipsis ? text.slice(0, -1) : text;
  for (const secret of secrets) {
    const start = secretCutOffAt(body, secret);
    if (start !== -1) return `${body.slice(0, start)}${REDACTED}${ellipsis}`;
  }
  return text;
}

/**
 * Where the longest proper prefix of `secret` (of at least MIN_SECRET_CHARS − 2 characters) that
 * ends the body starts, or -1: only the places holding the secret's first character are tried.
 */
function secretCutOffAt(body: string, secret: string): number {
  const shortest = MIN_SECRET_CHARS - 2;
  for (let at = body.indexOf(secret[0]!, Math.max(0, body.length - secret.length + 1)); at !== -1 && body.length - at >= shortest; at = body.indexOf(secret[0]!, at + 1)) {
    if (secret.startsWith(body.slice(at))) return at;
  }
  return -1;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/** Deeper than any log object or audit result; beyond it a value is dropped rather than risked. */
const MAX_DEPTH = 64;

function scrubDeep(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === 'string') return scrubTruncatedTail(replaceAll(value, secrets), secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) return REDACTED;
  if (value instanceof Error) {
    const error: Record<string, unknown> = { name: value.name, message: scrubDeep(value.message, secrets, depth + 1) };
    if (value.stack) error.stack = scrubDeep(value.stack, secrets, depth + 1);
    if ('code' in value) error.code = scrubDeep(value.code, secrets, depth + 1);
    return error;
  }
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, secrets, depth + 1));
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return scrubDeep(toJSON.call(value), secrets, depth + 1);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubDeep(item, secrets, depth + 1)]));
}
