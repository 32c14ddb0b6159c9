// The Arguments field of the server form. Most argument lists are short words and paths, best
// edited one per line; a list that lines cannot carry exactly (an argument holding a line break,
// a trailing empty argument, a first line starting with "[") is shown as a JSON array instead, so
// what the form shows always saves back as the very same list.

/** The field's hint: how the text becomes arguments. */
export const ARGS_HINT = 'One argument per line, exactly as written: spaces are kept, and an empty line between arguments is an empty argument. '
  + 'A text starting with "[" is read as a JSON array of strings, for arguments that hold a line break, e.g. ["-e", "first()\\nsecond()"].';

/** The text the field shows for a saved list; `parseArgsText` gives the same list back. */
export function argsToText(args) {
  const list = args ?? [];
  if (list.length === 0) return '';
  const lines = list.join('\n');
  const linesCarryIt = list.every((arg) => !/[\r\n]/.test(arg)) && list.at(-1) !== '' && !looksLikeJson(lines);
  return linesCarryIt ? lines : JSON.stringify(list);
}

/**
 * The arguments written in the field: `{ args }`, or `{ error }` for a JSON array that does not
 * parse (the message says what to fix). A text that is not a JSON array is read one per line.
 */
export function parseArgsText(text) {
  // One line break at the very end is taken for the habit of ending a text with Enter, not an argument.
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (body === '') return { args: [] };
  if (!looksLikeJson(body)) return { args: body.split('\n') };
  let parsed;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    return { error: `The arguments start with "[", so they are read as a JSON array, which does not parse (${error.message}). Fix it, or write one argument per line.` };
  }
  if (!Array.isArray(parsed) || !parsed.every((arg) => typeof arg === 'string')) {
    return { error: 'The arguments read as JSON must be an array of strings, e.g. ["-y", "some-package"].' };
  }
  return { args: parsed };
}

function looksLikeJson(text) {
  return text.trimStart().startsWith('[');
}
