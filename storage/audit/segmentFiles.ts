import { open, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256Hex } from '../../gateway/core/index.js';
import { writeFileAtomic } from '../atomicWrite.js';
import { splitLines } from '../journalLines.js';
import { decodeBlob, isAuditRecord, type AuditRecord } from './auditRecords.js';
import { SegmentRows, type SegmentIndexFile } from './segmentRows.js';

// File names: `00000001.log` (the append-only lines), `00000001.idx.json` (written when sealed).
const SEGMENT = /^(\d{8})\.log$/;

export const segmentPath = (dir: string, segment: number) => join(dir, `${String(segment).padStart(8, '0')}.log`);
export const indexPath = (dir: string, segment: number) => join(dir, `${String(segment).padStart(8, '0')}.idx.json`);

/** The segment numbers in `dir`, ascending. */
export async function listSegments(dir: string): Promise<number[]> {
  return (await readdir(dir))
    .map((name) => SEGMENT.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * A sealed segment's index file, or undefined when it is missing, unreadable or not a whole index
 * (then the segment is scanned): a file that parses but lacks a part start-up and reads rely on
 * (its open intents, its blob places) must not stop the gateway with a bare TypeError.
 */
export async function readIndex(dir: string, segment: number): Promise<SegmentIndexFile | undefined> {
  try {
    const file: unknown = JSON.parse(await readFile(indexPath(dir, segment), 'utf8'));
    return isIndexOf(file, segment) ? file : undefined;
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isIndexOf(value: unknown, segment: number): value is SegmentIndexFile {
  if (!isObject(value)) return false;
  const lists = [value.rows, value.open, value.authorizations ?? []];
  return (
    value.version === 1 && value.segment === segment && Number.isInteger(value.lastSeq) && isObject(value.blobs) &&
    lists.every((list) => Array.isArray(list) && list.every(isObject))
  );
}

export async function writeIndex(dir: string, index: SegmentIndexFile): Promise<void> {
  await writeFileAtomic(indexPath(dir, index.segment), JSON.stringify(index));
}

export async function removeSegment(dir: string, segment: number): Promise<void> {
  await rm(indexPath(dir, segment), { force: true });
  await rm(segmentPath(dir, segment), { force: true });
}

/**
 * Every sound record of a segment file with its place, up to a torn end; a damaged line between
 * sound ones is passed over, as the segment's journal does (its bytes were saved aside when opened).
 */
export async function scanSegment(dir: string, segment: number): Promise<Array<{ record: AuditRecord; offset: number; length: number }>> {
  const bytes = await readFile(segmentPath(dir, segment)).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? Buffer.alloc(0) : Promise.reject(e)));
  return splitLines(bytes, isAuditRecord, true).lines.map(({ entry, offset, length }) => ({ record: entry, offset, length }));
}

/** A segment's rows rebuilt from its lines (its index file was never written or is damaged). */
export async function rowsFromScan(dir: string, segment: number): Promise<SegmentRows> {
  const rows = new SegmentRows(segment);
  for (const { record, offset, length } of await scanSegment(dir, segment)) rows.addLine(record, offset, length);
  return rows;
}

/** The blob `hash` from the line at [offset, length] of a segment; undefined unless its bytes hash to `hash`. */
export async function readBlob(dir: string, segment: number, [offset, length]: [number, number], hash: string): Promise<Buffer | undefined> {
  let line: Buffer;
  try {
    const handle = await open(segmentPath(dir, segment), 'r');
    try {
      line = Buffer.alloc(length);
      const { bytesRead } = await handle.read(line, 0, length, offset);
      if (bytesRead !== length) return undefined;
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let record: unknown;
  try {
    record = JSON.parse(line.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isAuditRecord(record) || record.kind === 'authorization' || !record.blob) return undefined;
  const bytes = decodeBlob(record.blob);
  return sha256Hex(bytes) === hash ? bytes : undefined;
}
