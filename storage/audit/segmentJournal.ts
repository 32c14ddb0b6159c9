import { Journal } from '../journal.js';
import { isAuditRecord, type AuditRecord } from './auditRecords.js';
import { segmentPath } from './segmentFiles.js';
import type { SealedSegmentsOptions } from './sealedSegments.js';

export interface SegmentJournalOptions extends Pick<SealedSegmentsOptions, 'dir' | 'log' | 'now'> {
  /** Told how long each flush took to be durable, in ms. */
  onFsync?: (ms: number) => void;
  /** How long an intent or a completion waits for company (default LINGER_MS; tests lengthen it). */
  lingerMs?: number;
}

/**
 * An intent or a completion nobody waits for yet waits this long for a line somebody waits for, to
 * share its flush; with the flush, inside the promised 10 ms.
 */
const LINGER_MS = 4;
/** Zeros kept after the active segment's last line, so a flush overwrites (see Journal's reserveBytes); ~1 ms per MiB laid down. */
const RESERVE_BYTES = 1024 * 1024;

/**
 * Opens one segment's file as the audit log writes it: group-committed lines, lazy ones lingering,
 * a damaged line passed over (each record stands alone: the lines after it are kept),
 * a reserve of zeros ahead, and a flush somebody waits for written on the event loop while at most
 * one call is open (`openCalls`): no other call then waits on the loop meanwhile.
 */
export async function openSegmentJournal(options: SegmentJournalOptions, segment: number, openCalls: () => number): Promise<Journal<AuditRecord>> {
  const { dir, log, now, onFsync, lingerMs } = options;
  const { journal } = await Journal.open(segmentPath(dir, segment), {
    log, isEntry: isAuditRecord, skipDamagedLines: true, lingerMs: lingerMs ?? LINGER_MS, reserveBytes: RESERVE_BYTES, writeOnLoop: () => openCalls() <= 1, ...(now ? { now } : {}), ...(onFsync ? { onFsync } : {}),
  });
  return journal;
}
