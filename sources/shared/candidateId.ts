import { createHash } from 'node:crypto';

/** Stable candidate id: a hash of source, record and URL, so the same file keeps its id across calls. */
export function candidateId(sourceId: string, sourceRecordId: string, url: string): string {
  const digest = createHash('sha256').update(`${sourceId}\n${sourceRecordId}\n${url}`).digest('hex');
  return `cand_${digest.slice(0, 24)}`;
}

/** A filename safe on every filesystem: letters, digits, `.`, `_`, `-`; never empty or hidden. */
export function safeFilename(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._-]+/, '');
  return (cleaned || 'file').slice(0, 200);
}
