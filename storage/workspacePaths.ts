import { INVISIBLE_CHARS } from '../catalog/index.js';
import { GatewayError, MAX_WORKSPACE_NAME_BYTES } from '../gateway/core/index.js';

/** Longest Session-relative path, in characters. */
export const MAX_WORKSPACE_PATH_CHARS = 1024;
/** The suffix of a file still being written; never a name a caller may choose. */
export const PART_SUFFIX = '.part';
/** Most numbered names (`paper-1.pdf` … `paper-1000.pdf`) tried for a path already taken. */
export const MAX_NUMBERED = 1000;
const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

function refused(path: string, why: string): GatewayError {
  // The caller names the argument (aboutArgument): a download's destinationPath, an extraction's path.
  return new GatewayError('invalid_input', `The path "${path.slice(0, 200)}" is refused: ${why}. Give a relative path inside the session workspace, like "downloads/paper.pdf".`);
}

/**
 * Checks a Session-relative path lexically and returns it normalized (`a//b/` → `a/b`, Unicode NFC). Refused:
 * empty, absolute, NUL or control characters, backslashes, `.`/`..` and hidden segments, the
 * `.part` suffix, and over-long names. Symlinks are checked on the real path when a file is opened.
 */
export function checkWorkspacePath(relative: string): string {
  if (typeof relative !== 'string' || relative.length === 0) throw refused(String(relative), 'it is empty');
  if (relative.length > MAX_WORKSPACE_PATH_CHARS) throw refused(relative, `it is longer than ${MAX_WORKSPACE_PATH_CHARS} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(relative)) throw refused(relative, 'it contains NUL or control characters');
  // Bidirectional overrides and invisible characters make one name display as another (a listing, the admin page).
  if (INVISIBLE_CHARS.test(relative)) throw refused(relative, 'it contains invisible or text-direction characters');
  if (relative.startsWith('/')) throw refused(relative, 'it is absolute');
  if (/^[A-Za-z]:/.test(relative)) throw refused(relative, `it starts with "${relative.slice(0, 2)}", which reads as a Windows drive (an absolute path)`);
  if (relative.includes('\\')) throw refused(relative, 'it contains a backslash');
  const segments = relative.split('/').filter((s) => s.length > 0);
  if (segments.length === 0) throw refused(relative, 'it names no file');
  if (relative.endsWith('/')) throw refused(relative, 'it ends with "/", naming a folder; add the file name');
  for (const segment of segments) {
    if (segment === '..') throw refused(relative, 'it climbs out with ".."');
    if (segment.startsWith('.')) throw refused(relative, 'a segment starts with "." (hidden names are reserved)');
    if (segment !== segment.trim()) throw refused(relative, 'a segment starts or ends with a space');
    if (!nameFits(segment)) {
      throw refused(relative, `a segment is longer than ${MAX_WORKSPACE_NAME_BYTES} bytes (letters outside ASCII take 2 to 4 bytes each); shorten that name`);
    }
  }
  if (segments.at(-1)!.endsWith(PART_SUFFIX)) throw refused(relative, `"${PART_SUFFIX}" names files still being written`);
  // One spelling per name: "é" as one character or as "e" and a combining accent is the same file.
  return segments.join('/').normalize('NFC');
}

/** Whether a file or folder name is short enough to be written (as a part file too). */
export function nameFits(segment: string): boolean {
  return Buffer.byteLength(segment.normalize('NFC'), 'utf8') <= MAX_WORKSPACE_NAME_BYTES;
}

/** Checks a Session id before it becomes a directory name. */
export function checkSessionId(sessionId: string): string {
  if (!SESSION_ID.test(sessionId)) throw new GatewayError('invalid_input', 'The session id is not a valid workspace name.');
  return sessionId;
}

/** `dir/name.ext` → `dir/name-<n>.ext` (the number goes before the last extension). */
export function numberedPath(relative: string, n: number): string {
  const slash = relative.lastIndexOf('/');
  const dir = relative.slice(0, slash + 1);
  const name = relative.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${dir}${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${dir}${name}-${n}`;
}
