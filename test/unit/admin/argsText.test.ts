import { describe, expect, it } from 'vitest';

// The page's Arguments field is a plain browser module (no build step, no types): loaded by URL.
const text: any = await import(new URL('../../../admin/page/js/argsText.js', import.meta.url).href);

const LISTS: string[][] = [
  [], [''], ['a'], ['a', ''], ['', 'a'], ['a', '', 'b'], ['  spaced  '], ['-e', "console.log('a')\nconsole.log('b')", '', '  spaced  ', '--x'],
  ['[not json'], ['  [x]'], ['--allowed', '["a","b"]'], ['a\r\nb'], ['C:\\tools\\server.exe', '--flag=\\n'], ['"quoted"', "it's"],
];

describe('the Arguments field of the server form', () => {
  it.each(LISTS.map((list) => [JSON.stringify(list), list]))('shows %s so that it saves back unchanged', (_name, list) => {
    expect(text.parseArgsText(text.argsToText(list))).toEqual({ args: list });
  });

  it('shows plain lists one per line and the rest as JSON', () => {
    expect(text.argsToText(['-y', '@scope/server', '  spaced  '])).toBe('-y\n@scope/server\n  spaced  ');
    expect(text.argsToText(['-e', 'a\nb'])).toBe('["-e","a\\nb"]');
  });

  it('reads what an admin types: one per line (a final line break ignored), or a JSON array of strings', () => {
    expect(text.parseArgsText('a\n\n b \n')).toEqual({ args: ['a', '', ' b '] });
    expect(text.parseArgsText('["-e", "x\\ny"]')).toEqual({ args: ['-e', 'x\ny'] });
    expect(text.parseArgsText('["-e", 1]').error).toMatch(/array of strings/);
    expect(text.parseArgsText('["-e"').error).toMatch(/does not parse/);
  });
});
