/** The keys an import document lists its servers under (VS Code's `servers` when there is no `mcpServers`). */
const LIST_KEYS = ['mcpServers', 'servers'];

interface Frame {
  kind: 'object' | 'array';
  /** The next string in this object is a key. */
  expectKey: boolean;
  lastKey?: string;
  /** The server list this object is (a value of a list key of the document's root object). */
  list?: string;
}

/**
 * What an import document's JSON text repeats that `JSON.parse` drops without a word: a server
 * name given twice (the last entry wins, as when Claude Desktop reads the same file) or the list
 * itself given twice (only the last list is read). The import goes ahead as the parsed document
 * says; these become warnings so the admin sees which entries were not imported. The text was
 * already parsed, so it is valid JSON; anything else yields no warning rather than an error.
 */
export function importRepeats(text: string): string[] {
  try {
    return warningsOf(scanKeys(text));
  } catch {
    return [];
  }
}

/** How often the root object names each list key, and each name inside those lists. */
function scanKeys(text: string): { lists: Map<string, number>; names: Map<string, Map<string, number>> } {
  const lists = new Map<string, number>();
  const names = new Map<string, Map<string, number>>();
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    const top = stack.at(-1);
    if (char === '{' || char === '[') {
      const list = stack.length === 1 && top?.lastKey !== undefined && LIST_KEYS.includes(top.lastKey) && char === '{' ? top.lastKey : undefined;
      stack.push({ kind: char === '{' ? 'object' : 'array', expectKey: char === '{', ...(list ? { list } : {}) });
    } else if (char === '}' || char === ']') {
      stack.pop();
    } else if (char === ',' && top?.kind === 'object') {
      top.expectKey = true;
    } else if (char === '"') {
      const end = stringEnd(text, i);
      if (top?.kind === 'object' && top.expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        top.expectKey = false;
        top.lastKey = key;
        if (stack.length === 1 && LIST_KEYS.includes(key)) count(lists, key);
        if (top.list) {
          if (!names.has(top.list)) names.set(top.list, new Map());
          count(names.get(top.list)!, key);
        }
      }
      i = end;
    }
  }
  return { lists, names };
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') return i;
  }
  throw new Error('unterminated string');
}

function count(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function warningsOf({ lists, names }: ReturnType<typeof scanKeys>): string[] {
  // The list the import reads: `mcpServers`, or `servers` when there is no `mcpServers`.
  const key = lists.has('mcpServers') ? 'mcpServers' : 'servers';
  const warnings: string[] = [];
  const listCount = lists.get(key) ?? 0;
  if (listCount > 1) warnings.push(`"${key}" appears ${listCount} times: only the last one was read. Put every server in one "${key}" object and import the others again.`);
  for (const [name, times] of names.get(key) ?? []) {
    if (times > 1) warnings.push(`"${name}" appears ${times} times in "${key}": only the last entry was imported (as Claude Desktop reads the file). If they are different servers, give them different names and import the others again.`);
  }
  return warnings;
}
