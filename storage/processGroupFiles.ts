import { mkdir, readFile, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProcessGroupEntry, ProcessGroupRecord } from '../gateway/core/index.js';
import { writeFileAtomic } from './atomicWrite.js';

/** Folder in the data directory holding one small JSON file per live stdio process group. */
export const PROCESS_GROUPS_DIR = 'process-groups';

/**
 * The process-group record as files: `<dataDir>/process-groups/<pgid>.json`. One file per group
 * so that starting and stopping servers never rewrite each other's entries.
 */
export class ProcessGroupFiles implements ProcessGroupRecord {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, PROCESS_GROUPS_DIR);
  }

  async add(entry: ProcessGroupEntry): Promise<void> {
    // Not recursive: a data directory that is gone is not silently made again.
    await mkdir(this.dir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    await writeFileAtomic(this.fileOf(entry.pgid), JSON.stringify(entry));
  }

  async remove(pgid: number): Promise<void> {
    await unlink(this.fileOf(pgid)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  /** Every readable entry; a file that is not one (torn, hand-edited) is dropped. */
  async list(): Promise<ProcessGroupEntry[]> {
    const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    const entries: ProcessGroupEntry[] = [];
    for (const name of names.filter((n) => /^\d+\.json$/.test(n))) {
      const entry = parseEntry(await readFile(join(this.dir, name), 'utf8').catch(() => ''));
      if (entry && `${entry.pgid}.json` === name) entries.push(entry);
      else await unlink(join(this.dir, name)).catch(() => {});
    }
    return entries;
  }

  private fileOf(pgid: number): string {
    if (!Number.isSafeInteger(pgid) || pgid <= 1) throw new RangeError(`not a process group id: ${pgid}`);
    return join(this.dir, `${pgid}.json`);
  }
}

function parseEntry(text: string): ProcessGroupEntry | undefined {
  try {
    const value = JSON.parse(text) as Partial<ProcessGroupEntry>;
    const pid = (n: unknown) => Number.isSafeInteger(n) && (n as number) > 1;
    const ticks = (t: unknown) => typeof t === 'string' && /^\d+$/.test(t);
    if (!pid(value.pgid) || !pid(value.ownerPid) || !ticks(value.startTicks) || !ticks(value.ownerStartTicks)) return undefined;
    return { pgid: value.pgid!, startTicks: value.startTicks!, ownerPid: value.ownerPid!, ownerStartTicks: value.ownerStartTicks! };
  } catch {
    return undefined;
  }
}
