// The env/header editing draft of seed §5.3. The API never sends saved values (each is null), so
// the draft remembers which saved name each row came from (`originalKey`) and sends:
//   - value: null for a saved row whose value was not edited (the gateway keeps the stored value);
//   - a typed value when one was entered; "" when the admin explicitly cleared it;
//   - originalKey on every saved row, so a rename is visible to the gateway, which refuses a renamed
//     key without a new value (a saved value never moves to another name, so a swap cannot either).

/** Rows for a saved server's `env`/`headers` list (`[{key, value: null}]`). */
export function draftFromSaved(entries) {
  return (entries ?? []).map(({ key }) => ({ originalKey: key, key, typed: '', cleared: false }));
}

/** A new, unsaved row. */
export function newRow() {
  return { originalKey: undefined, key: '', typed: '', cleared: false };
}

/** What this row sends as `value`: null keeps the stored value. */
export function valueOf(row) {
  if (row.cleared) return '';
  if (row.typed !== '') return row.typed;
  // Untouched saved rows keep their value; a new row with nothing typed is an empty value.
  return row.originalKey !== undefined ? null : '';
}

/** Whether the row now carries a different name than the one it was saved under. */
export function isRenamed(row) {
  return row.originalKey !== undefined && row.key !== row.originalKey;
}

/**
 * Inline errors by row index, checked before saving: a missing or repeated name, and a renamed
 * saved key without a new non-empty value. `caseless` for headers (names compare ignoring case).
 */
export function draftErrors(rows, { caseless = false } = {}) {
  const errors = new Map();
  const seen = new Map();
  rows.forEach((row, index) => {
    const key = row.key.trim();
    if (!key) {
      errors.set(index, 'Enter a name, or remove this row.');
      return;
    }
    const folded = caseless ? key.toLowerCase() : key;
    if (seen.has(folded)) {
      errors.set(index, `"${key}" is listed twice; remove one of them.`);
      return;
    }
    seen.set(folded, index);
    if (isRenamed(row) && !valueOf(row)) {
      errors.set(index, `Renamed from "${row.originalKey}": enter a new value. A saved value never moves to another name; restore the name "${row.originalKey}" to keep it.`);
    }
  });
  return errors;
}

/** The request list: `[{key, value, originalKey?}]`. */
export function draftToEdits(rows) {
  return rows.map((row) => {
    const edit = { key: row.key.trim(), value: valueOf(row) };
    if (row.originalKey !== undefined) edit.originalKey = row.originalKey;
    return edit;
  });
}

/** A short description of what saving will do with this row's value (shown beside it). */
export function rowHint(row) {
  if (row.originalKey === undefined) return 'New entry.';
  if (row.cleared) return 'The saved value will be cleared (saved as empty).';
  if (row.typed !== '') return isRenamed(row) ? `Renamed from "${row.originalKey}" with a new value.` : 'A new value replaces the saved one.';
  if (isRenamed(row)) return `Renamed from "${row.originalKey}".`;
  return 'Saved value kept (not shown). Type to replace it.';
}
