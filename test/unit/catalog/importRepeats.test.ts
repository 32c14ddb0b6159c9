import { describe, expect, it } from 'vitest';
import { importRepeats } from '../../../catalog/importRepeats.js';

describe('importRepeats', () => {
  it('names a server given twice in mcpServers, once, whatever its spelling in the text', () => {
    const text = '{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}, "\\u0061": {"command": "z"}}}';
    expect(importRepeats(text)).toEqual([expect.stringMatching(/^"a" appears 2 times in "mcpServers": only the last entry was imported/)]);
  });

  it('counts only the list\'s own keys: the same env or header names in two servers, and keys inside strings, are no repeat', () => {
    const text = JSON.stringify({
      mcpServers: {
        one: { command: 'x', env: { TOKEN: '1' }, args: ['{"two": 1, "one": 2}'] },
        two: { command: 'y', env: { TOKEN: '2' }, args: ['\\"one\\": {'] },
      },
      one: 'unrelated key at the root',
    });
    expect(importRepeats(text)).toEqual([]);
  });

  it('says when the list itself is given twice (only the last is read), and reads VS Code\'s servers when there is no mcpServers', () => {
    expect(importRepeats('{"mcpServers": {"a": {}}, "mcpServers": {"b": {}}}')).toEqual([expect.stringMatching(/^"mcpServers" appears 2 times: only the last one was read/)]);
    expect(importRepeats('{"servers": {"a": {"url": "u"}, "a": {"url": "v"}}}')).toEqual([expect.stringMatching(/^"a" appears 2 times in "servers"/)]);
    // With mcpServers present, `servers` is not what the import reads.
    expect(importRepeats('{"mcpServers": {"a": {}}, "servers": {"b": {}, "b": {}}}')).toEqual([]);
  });

  it('yields nothing, not an error, for text that is not JSON', () => {
    expect(importRepeats('')).toEqual([]);
    expect(importRepeats('{"mcpServers": {"a": {}, "a')).toEqual([]);
  });
});
