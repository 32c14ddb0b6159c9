import type { SecretEdit } from '../../catalog/index.js';
import { GatewayError } from '../core/index.js';

/**
 * Applies an edited env or header list to the saved values (seed §5.3), returning the new set:
 * - an unchanged key with `value: null` keeps its saved value;
 * - a renamed key (`originalKey` differs) needs a new non-empty value — saved values never move
 *   between names, so swapping two names cannot bypass re-entry either;
 * - a key with no saved value needs one; `value: ""` explicitly clears a value;
 * - a saved key left out of the list is removed.
 */
export function applySecretEdits(
  field: 'env' | 'headers',
  saved: Readonly<Record<string, string>>,
  edits: readonly SecretEdit[],
): Record<string, string> {
  const next: Record<string, string> = {};
  const seen = new Set<string>();
  for (const edit of edits) {
    const label = `${field}.${edit.key}`;
    const folded = field === 'headers' ? edit.key.toLowerCase() : edit.key;
    if (seen.has(folded)) throw invalid(label, 'is listed twice');
    seen.add(folded);
    const renamed = edit.originalKey !== undefined && edit.originalKey !== edit.key;
    if (renamed && !edit.value) {
      throw invalid(label, `was renamed from "${edit.originalKey!.slice(0, 128)}"; enter a new value (a saved value never moves to another name)`);
    }
    if (edit.value !== null) {
      next[edit.key] = edit.value;
    } else if (Object.hasOwn(saved, edit.key)) {
      next[edit.key] = saved[edit.key]!;
    } else {
      throw invalid(label, 'has no saved value; enter a value');
    }
  }
  return next;
}

/** The response form of env/header values: every key, every value `null`. */
export function redactedEntries(values: Readonly<Record<string, string>>): Array<{ key: string; value: null }> {
  return Object.keys(values).map((key) => ({ key, value: null }));
}

function invalid(field: string, message: string): GatewayError {
  return new GatewayError('invalid_input', `${field}: ${message}`, { details: { field } });
}
