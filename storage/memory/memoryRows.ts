// Helpers every memory store shares, so each behaves like a table of the embedded store.

/** A deep copy: what a memory store hands out or keeps can never be changed through another reference, as with a database. */
export function copy<T>(record: T): T {
  return structuredClone(record);
}

/** Sorts by a text key (ISO timestamps sort as text), keeping insertion order for ties like the SQL `rowid`. */
export function byKey<T>(rows: Iterable<T>, key: (row: T) => string, direction: 'asc' | 'desc' = 'asc'): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => sign * compare(key(a), key(b)));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Rejects like a primary-key violation does in SQL. */
export function duplicateKey(table: string, id: string): Error {
  return new Error(`${table}: a row with id ${id} already exists`);
}
