import { constants, createReadStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, open, readdir, realpath, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join, relative as relativeTo, sep } from 'node:path';
import { GatewayError, type PartialFile, type SessionWorkspace, type WorkspaceFile } from '../gateway/core/index.js';
import { fsyncDirectory } from './atomicWrite.js';
import { MAX_NUMBERED, PART_SUFFIX, checkSessionId, checkWorkspacePath, nameFits, numberedPath } from './workspacePaths.js';

/** The folder of the data directory that holds one workspace per Session. */
export const WORKSPACES_DIR = 'workspaces';
const DIR_MODE = 0o700;
const PART_MODE = 0o600;
/** Completed files: read-only, owner only. */
export const COMPLETED_FILE_MODE = 0o400;
/**
 * Where writes keep their temp files until linked into place: one hidden folder beside the Session
 * folders (no Session id or workspace path can name it), on the same file system, so start-up
 * clears a stopped gateway's leftovers without walking any workspace.
 */
const UNFINISHED_WRITES_DIR = '.writes';
/** What link(2) answers where the file system has no hard links (some FUSE and network mounts). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** The Session workspaces under `<dataDir>/workspaces/` (GATEWAY.md §5). */
export class FileWorkspace implements SessionWorkspace {
  private readonly root: string;

  constructor(
    dataDir: string,
    /** link(2); a test passes one that fails as on a file system without hard links. */
    private readonly hardLink: (existing: string, created: string) => Promise<void> = link,
  ) {
    this.root = join(dataDir, WORKSPACES_DIR);
  }

  rootPath(sessionId: string): string {
    return join(this.root, checkSessionId(sessionId));
  }

  checkPath(relative: string): string {
    return checkWorkspacePath(relative);
  }

  async freePath(sessionId: string, relative: string): Promise<string> {
    const wanted = checkWorkspacePath(relative);
    for (let n = 0; n <= MAX_NUMBERED; n++) {
      const candidate = n === 0 ? wanted : numberedPath(wanted, n);
      if (!nameFits(candidate.slice(candidate.lastIndexOf('/') + 1))) {
        throw new GatewayError('conflict', `"${wanted.slice(0, 200)}" is taken, and its name is too long to add a number to; choose another destination path.`);
      }
      const abs = this.absolute(sessionId, candidate);
      if (!(await exists(abs)) && !(await exists(abs + PART_SUFFIX))) return candidate;
    }
    throw new GatewayError('conflict', `More than ${MAX_NUMBERED} files are named like "${wanted.slice(0, 200)}"; choose another destination path.`);
  }

  async openPartial(sessionId: string, relative: string): Promise<PartialFile> {
    const abs = await this.prepare(sessionId, relative, { create: true });
    await refuseExisting(abs, relative);
    // O_NOFOLLOW: a symlink planted at the part file's name is refused, never followed.
    const handle = await open(abs + PART_SUFFIX, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, PART_MODE).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ELOOP' ? symlinkRefused(relative) : error;
    });
    return partialFile(handle, abs + PART_SUFFIX, (await handle.stat()).size);
  }

  async partialSize(sessionId: string, relative: string): Promise<number | undefined> {
    const abs = this.absolute(sessionId, checkWorkspacePath(relative)) + PART_SUFFIX;
    const info = await lstat(abs).catch(() => undefined);
    return info?.isFile() ? info.size : undefined;
  }

  async discardPartial(sessionId: string, relative: string): Promise<void> {
    await rm(this.absolute(sessionId, checkWorkspacePath(relative)) + PART_SUFFIX, { force: true });
  }

  async commitPartial(sessionId: string, relative: string): Promise<WorkspaceFile> {
    const abs = await this.prepare(sessionId, relative, { create: false });
    await refuseExisting(abs, relative);
    const handle = await open(abs + PART_SUFFIX, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      await handle.sync();
      await handle.chmod(COMPLETED_FILE_MODE);
    } finally {
      await handle.close();
    }
    await rename(abs + PART_SUFFIX, abs);
    await fsyncDirectory(dirname(abs));
    return (await this.stat(sessionId, relative))!;
  }

  /**
   * Each write has a temp file of its own (never another writer's), made visible with link(),
   * which fails if the name was taken meanwhile: a completed file is never overwritten, and
   * concurrent writers of one path get one success and conflicts.
   */
  async writeFile(sessionId: string, relative: string, source: AsyncIterable<Uint8Array>, options: { maxBytes: number }): Promise<WorkspaceFile> {
    const abs = await this.prepare(sessionId, relative, { create: true });
    await refuseExisting(abs, relative);
    const temps = join(this.root, UNFINISHED_WRITES_DIR);
    await mkdir(temps, { recursive: true, mode: DIR_MODE });
    const temp = join(temps, `${randomBytes(8).toString('hex')}${PART_SUFFIX}`);
    const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, PART_MODE);
    try {
      try {
        const part = partialFile(handle, temp, 0);
        for await (const chunk of source) {
          if (part.sizeBytes + chunk.byteLength > options.maxBytes) {
            throw new GatewayError('request_too_large', `The file is larger than ${options.maxBytes} bytes; send a smaller one.`);
          }
          await part.write(chunk);
        }
        await handle.sync();
        await handle.chmod(COMPLETED_FILE_MODE);
      } finally {
        await handle.close();
      }
      await this.hardLink(temp, abs).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') await refuseExisting(abs, relative);
        if (!NO_HARD_LINKS.has(error.code ?? '')) throw error;
        // A file system without hard links: checked, then renamed (a writer racing for the same
        // name between the two could still replace it there).
        await refuseExisting(abs, relative);
        await rename(temp, abs);
      });
    } finally {
      await rm(temp, { force: true });
    }
    await fsyncDirectory(dirname(abs));
    return (await this.stat(sessionId, relative))!;
  }

  /** Removes the temp files of writes a stopped gateway left unfinished (never resumed, unlike downloads' part files). */
  async removeUnfinishedWrites(): Promise<number> {
    const temps = join(this.root, UNFINISHED_WRITES_DIR);
    const left = await readdir(temps).catch(() => []);
    await Promise.all(left.map((name) => rm(join(temps, name), { force: true })));
    return left.length;
  }

  async stat(sessionId: string, relative: string): Promise<WorkspaceFile | undefined> {
    const path = checkWorkspacePath(relative);
    const info = await lstat(this.absolute(sessionId, path)).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    return { path, sizeBytes: info.size, modifiedAt: info.mtime.toISOString() };
  }

  async list(sessionId: string): Promise<WorkspaceFile[]> {
    const base = join(this.root, checkSessionId(sessionId));
    const entries = await readdir(base, { recursive: true, withFileTypes: true }).catch(() => []);
    const files: WorkspaceFile[] = [];
    for (const entry of entries) {
      if (!entry.isFile() || entry.name.endsWith(PART_SUFFIX) || entry.name.startsWith('.')) continue;
      const path = relativeTo(base, join(entry.parentPath, entry.name)).split(sep).join('/');
      const info = await stat(join(base, path)).catch(() => undefined);
      if (info) files.push({ path, sizeBytes: info.size, modifiedAt: info.mtime.toISOString() });
    }
    return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async read(sessionId: string, relative: string, range: { offset: number; length: number }): Promise<Buffer> {
    const handle = await this.openCompleted(sessionId, relative);
    try {
      const buffer = Buffer.alloc(Math.max(0, range.length));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, range.offset);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async realPath(sessionId: string, relative: string): Promise<string> {
    const abs = await this.prepare(sessionId, relative, { create: false });
    const real = await realpath(abs).catch(() => {
      throw new GatewayError('not_found', `No file "${relative.slice(0, 200)}" in this session's workspace; list the files first.`);
    });
    if (real !== abs) throw symlinkRefused(relative);
    return real;
  }

  /** A readable stream over a completed file's bytes [start, end] (the admin page's downloads). */
  async stream(sessionId: string, relative: string, range?: { start: number; end: number }) {
    return createReadStream(await this.realPath(sessionId, relative), range ?? {});
  }

  private absolute(sessionId: string, relative: string): string {
    return join(this.root, checkSessionId(sessionId), ...relative.split('/'));
  }

  private async openCompleted(sessionId: string, relative: string): Promise<FileHandle> {
    const abs = await this.prepare(sessionId, relative, { create: false });
    return open(abs, constants.O_RDONLY | constants.O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ELOOP') throw symlinkRefused(relative);
      throw new GatewayError('not_found', `No file "${relative.slice(0, 200)}" in this session's workspace; list the files first.`);
    });
  }

  /**
   * The absolute path of `relative`, after checking on the real file system that its directory is
   * inside the Session's real workspace directory (a symlinked directory is refused, not followed).
   * With `create`, missing directories are made 0700.
   */
  private async prepare(sessionId: string, relative: string, options: { create: boolean }): Promise<string> {
    const path = checkWorkspacePath(relative);
    const base = join(this.root, checkSessionId(sessionId));
    if (options.create) {
      await mkdir(this.root, { recursive: true, mode: DIR_MODE });
      await mkdir(base, { recursive: true, mode: DIR_MODE });
    }
    const abs = this.absolute(sessionId, path);
    const parent = dirname(abs);
    if (options.create) await makeDirsInside(base, path.split('/').slice(0, -1), path);
    const [realBase, realParent] = await Promise.all([realpath(base), realpath(parent)]).catch(() => {
      throw new GatewayError('not_found', `No file "${path.slice(0, 200)}" in this session's workspace; list the files first.`);
    });
    if (realParent !== realBase && !realParent.startsWith(realBase + sep)) throw symlinkRefused(path);
    return join(realParent, abs.slice(parent.length + 1));
  }
}

function partialFile(handle: FileHandle, path: string, initialSize: number): PartialFile {
  let size = initialSize;
  return {
    get sizeBytes() {
      return size;
    },
    existing: () => createReadStream(path, { start: 0, end: Math.max(0, size - 1), highWaterMark: 1 << 20 }),
    write: async (chunk) => {
      let offset = 0;
      while (offset < chunk.byteLength) {
        const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset, size);
        offset += bytesWritten;
        size += bytesWritten;
      }
    },
    truncate: async (bytes) => {
      await handle.truncate(bytes);
      size = bytes;
    },
    fd: handle.fd,
    appended: (bytes) => {
      size += bytes;
    },
    close: () => handle.close(),
  };
}

/** Creates each missing directory (0700) one level at a time; an existing symlink on the way is refused, never followed. */
async function makeDirsInside(base: string, segments: string[], relative: string): Promise<void> {
  let current = base;
  for (const segment of segments) {
    current = join(current, segment);
    const info = await lstat(current).catch(() => undefined);
    if (info?.isSymbolicLink()) throw symlinkRefused(relative);
    if (info && !info.isDirectory()) {
      throw new GatewayError('conflict', `"${relative.slice(0, 200)}" needs "${segment.slice(0, 100)}" to be a folder, but it is a file; choose another destination path.`);
    }
    if (!info) await mkdir(current, { mode: DIR_MODE }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(() => true, () => false);
}

/** Refuses a path something already has: a completed file (never overwritten) or a folder. */
async function refuseExisting(path: string, relative: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (!info) return;
  const name = `"${relative.slice(0, 200)}"`;
  throw new GatewayError(
    'conflict',
    info.isDirectory()
      ? `${name} is a folder in the workspace; add a file name to the path, e.g. "${relative.slice(0, 200)}/paper.pdf".`
      : `${name} already exists in the workspace and completed files are never overwritten; choose another destination path.`,
  );
}

function symlinkRefused(relative: string): GatewayError {
  return new GatewayError('invalid_input', `The path "${relative.slice(0, 200)}" leads through a symbolic link out of the session workspace; choose a path inside it.`);
}
