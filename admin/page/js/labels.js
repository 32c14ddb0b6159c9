/** How a Session is named in choices and headings: client, project and a short id. */
export function sessionLabel(session) {
  return `${session.clientName ?? 'unknown client'} · ${session.projectId} · ${session.id.slice(0, 12)}`;
}

/** A byte count as people read it: 812 bytes, 48.2 kB, 3.0 MB, 1.2 GB (powers of 1000, as file sizes are shown). */
export function byteSize(bytes) {
  if (bytes < 1000) return `${bytes} bytes`;
  const [value, unit] = bytes < 1e6 ? [bytes / 1e3, 'kB'] : bytes < 1e9 ? [bytes / 1e6, 'MB'] : [bytes / 1e9, 'GB'];
  return `${value.toFixed(1)} ${unit}`;
}

/** Progress of a transfer in words, e.g. "1.0 MB of 3.0 MB". */
export function progressText(done, total) {
  return total ? `${byteSize(done)} of ${byteSize(total)}` : byteSize(done);
}
