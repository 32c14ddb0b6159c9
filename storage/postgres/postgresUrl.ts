/** A `--store` value that selects the PostgreSQL adapter. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/**
 * The URL as it may be shown in a message or a log: the password replaced by `***`. A value that
 * does not parse as a URL is not shown at all, since any part of it may be the password.
 */
export function redactPostgresUrl(value: string): string {
  // `user:secret@host/db` parses as a URL of scheme `user:`: without `://` nothing is shown.
  if (!value.includes('://')) return '(a value that is not a URL)';
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(a value that is not a URL)';
  }
}

/** The password in the URL (decoded), for the secret scrubber; undefined when there is none. */
export function postgresPassword(value: string): string | undefined {
  try {
    const password = new URL(value).password;
    return password ? decodeURIComponent(password) : undefined;
  } catch {
    return undefined;
  }
}

/** Why the value is not a usable postgres:// URL, or undefined when it is one. */
export function postgresUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'it is not a valid URL';
  }
  if (!isPostgresUrl(value)) return 'it does not start with postgres:// or postgresql://';
  if (!url.hostname) return 'it names no host';
  if (url.pathname.length <= 1) return 'it names no database (the path after the host, e.g. /scigate)';
  return undefined;
}
