import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileWorkspace } from '../../../storage/index.js';

async function* chunks(...parts: string[]): AsyncIterable<Uint8Array> {
  for (const p of parts) yield Buffer.from(p);
}

describe('the Session workspace', () => {
  let dataDir: string;
  let outside: string;
  let workspace: FileWorkspace;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'scigate-ws-'));
    outside = await mkdtemp(join(tmpdir(), 'scigate-outside-'));
    workspace = new FileWorkspace(dataDir);
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it.each([
    ['absolute', '/etc/passwd'],
    ['parent climb', '../other/x.pdf'],
    ['parent climb inside', 'downloads/../../x.pdf'],
    ['NUL', 'a\u0000b.pdf'],
    ['hidden', '.ssh/authorized_keys'],
    ['backslash', 'a\\..\\b'],
    ['part suffix', 'paper.pdf.part'],
    ['empty', ''],
    ['folder', 'uploads/a/'],
    ['text-direction override', 'uploads/\u202Efdp.exe'],
    ['trailing space', 'uploads/x.pdf '],
    ['drive letter', 'c:paper.pdf'],
    ['multibyte over-long name', `uploads/${'論'.repeat(100)}.pdf`],
  ])('refuses a %s path with invalid_input (the tool or route that passed it names its argument)', async (_label, path) => {
    expect(() => workspace.checkPath(path)).toThrow(expect.objectContaining({ code: 'invalid_input', message: expect.stringContaining('is refused') }));
    await expect(workspace.openPartial('ses_1', path)).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('creates the Session directory and its folders 0700, completes files 0400, and reads them back in ranges', async () => {
    const file = await workspace.writeFile('ses_1', 'downloads/pdb/1abc.cif', chunks('hello ', 'world'), { maxBytes: 100 });
    expect(file).toMatchObject({ path: 'downloads/pdb/1abc.cif', sizeBytes: 11 });
    const base = join(dataDir, 'workspaces', 'ses_1');
    for (const dir of [join(dataDir, 'workspaces'), base, join(base, 'downloads'), join(base, 'downloads/pdb')]) {
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
    }
    expect((await stat(join(base, 'downloads/pdb/1abc.cif'))).mode & 0o777).toBe(0o400);
    expect((await workspace.read('ses_1', 'downloads/pdb/1abc.cif', { offset: 6, length: 100 })).toString()).toBe('world');
    expect(await workspace.list('ses_1')).toEqual([expect.objectContaining({ path: 'downloads/pdb/1abc.cif', sizeBytes: 11 })]);
    expect(await workspace.list('ses_other')).toEqual([]);
  });

  it('takes a name up to 250 bytes, which the file system holds as a part file too; a clash it cannot number is a conflict', async () => {
    const longest = `${'論'.repeat(82)}.pdf`;
    expect(Buffer.byteLength(longest)).toBe(250);
    const part = await workspace.openPartial('ses_1', longest);
    await part.write(Buffer.from('one'));
    await part.close();
    expect(await workspace.commitPartial('ses_1', longest)).toMatchObject({ path: longest, sizeBytes: 3 });
    await expect(workspace.freePath('ses_1', longest)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('too long to add a number to') });
    await workspace.writeFile('ses_1', `${'論'.repeat(80)}.pdf`, chunks('two'), { maxBytes: 100 });
    expect(await workspace.freePath('ses_1', `${'論'.repeat(80)}.pdf`)).toBe(`${'論'.repeat(80)}-1.pdf`);
    for (const name of ['x'.repeat(251), `${'論'.repeat(83)}.pdf`]) {
      await expect(workspace.openPartial('ses_1', name)).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('longer than 250 bytes') });
    }
  });

  it('never overwrites a completed file, and gives a numbered name on a clash (partial files count)', async () => {
    await workspace.writeFile('ses_1', 'paper.pdf', chunks('one'), { maxBytes: 100 });
    await expect(workspace.writeFile('ses_1', 'paper.pdf', chunks('two'), { maxBytes: 100 })).rejects.toMatchObject({ code: 'conflict' });
    expect((await readFile(join(dataDir, 'workspaces/ses_1/paper.pdf'))).toString()).toBe('one');
    expect(await workspace.freePath('ses_1', 'paper.pdf')).toBe('paper-1.pdf');
    const part = await workspace.openPartial('ses_1', 'paper-1.pdf');
    await part.close();
    expect(await workspace.freePath('ses_1', 'paper.pdf')).toBe('paper-2.pdf');
    expect(await workspace.freePath('ses_1', 'notes')).toBe('notes');
    // A path that is a folder is named as one, with the fix, not as a file never overwritten.
    await workspace.writeFile('ses_1', 'uploads/a.pdf', chunks('a'), { maxBytes: 100 });
    await expect(workspace.writeFile('ses_1', 'uploads', chunks('b'), { maxBytes: 100 })).rejects.toMatchObject({
      code: 'conflict', message: '"uploads" is a folder in the workspace; add a file name to the path, e.g. "uploads/paper.pdf".',
    });
    expect(() => workspace.checkPath('c:paper.pdf')).toThrow(/starts with "c:", which reads as a Windows drive/);
    // Two spellings of one name are one file: "é" composed, then "e" with a combining accent.
    await workspace.writeFile('ses_1', 'notes/caf\u00e9.txt', chunks('first'), { maxBytes: 100 });
    await expect(workspace.writeFile('ses_1', 'notes/cafe\u0301.txt', chunks('second'), { maxBytes: 100 })).rejects.toMatchObject({ code: 'conflict' });
    expect((await workspace.read('ses_1', 'notes/cafe\u0301.txt', { offset: 0, length: 100 })).toString()).toBe('first');
  });

  it('concurrent writes of one path: one completes, the others are conflicts, and the file is one writer\'s whole', async () => {
    const bodies = ['a', 'b', 'c', 'd', 'e'].map((letter) => letter.repeat(200_000));
    const results = await Promise.allSettled(bodies.map((body) => workspace.writeFile('ses_1', 'same.txt', chunks(body.slice(0, 100_000), body.slice(100_000)), { maxBytes: 1_000_000 })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'conflict' });
    expect(bodies).toContain((await readFile(join(dataDir, 'workspaces/ses_1/same.txt'))).toString());
    // No temp file is left, and a write cut off by a stop (its temp file) is removed at the next start; a download's part file stays.
    expect((await readdir(join(dataDir, 'workspaces/ses_1'))).sort()).toEqual(['same.txt']);
    expect(await readdir(join(dataDir, 'workspaces/.writes'))).toEqual([]);
    await writeFile(join(dataDir, 'workspaces/.writes/0123456789abcdef.part'), 'cut off');
    await (await workspace.openPartial('ses_1', 'download.bin')).close();
    expect(await workspace.removeUnfinishedWrites()).toBe(1);
    expect((await readdir(join(dataDir, 'workspaces/ses_1'))).sort()).toEqual(['download.bin.part', 'same.txt']);
    expect(await readdir(join(dataDir, 'workspaces/.writes'))).toEqual([]);
  });

  it('writes where the file system has no hard links: renamed into place, still never over a file', async () => {
    const noLinks = new FileWorkspace(dataDir, async () => {
      throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
    });
    expect(await noLinks.writeFile('ses_1', 'up/one.txt', chunks('one'), { maxBytes: 100 })).toMatchObject({ path: 'up/one.txt', sizeBytes: 3 });
    await expect(noLinks.writeFile('ses_1', 'up/one.txt', chunks('two'), { maxBytes: 100 })).rejects.toMatchObject({ code: 'conflict' });
    expect((await readFile(join(dataDir, 'workspaces/ses_1/up/one.txt'))).toString()).toBe('one');
    expect(await readdir(join(dataDir, 'workspaces/ses_1/up'))).toEqual(['one.txt']);
  });

  it('refuses a symlink escape on the real path when the file is opened, and creates nothing outside', async () => {
    const base = join(dataDir, 'workspaces', 'ses_1');
    await mkdir(base, { recursive: true });
    await symlink(outside, join(base, 'escape'));
    await expect(workspace.openPartial('ses_1', 'escape/x.pdf')).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(workspace.openPartial('ses_1', 'escape/deeper/x.pdf')).rejects.toMatchObject({ code: 'invalid_input' });
    await writeFile(join(outside, 'secret.txt'), 'secret');
    await symlink(join(outside, 'secret.txt'), join(base, 'link.txt'));
    await expect(workspace.read('ses_1', 'link.txt', { offset: 0, length: 10 })).rejects.toMatchObject({ code: 'invalid_input' });
    await symlink(join(outside, 'planted'), join(base, 'trap.pdf.part'));
    await expect(workspace.openPartial('ses_1', 'trap.pdf')).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(stat(join(outside, 'deeper'))).rejects.toThrow();
    await expect(stat(join(outside, 'planted'))).rejects.toThrow();
  });

  it('a partial file resumes where it stopped, and a file over the size limit is discarded', async () => {
    const first = await workspace.openPartial('ses_1', 'big.bin');
    await first.write(Buffer.from('abc'));
    await first.close();
    expect(await workspace.partialSize('ses_1', 'big.bin')).toBe(3);
    const again = await workspace.openPartial('ses_1', 'big.bin');
    expect(again.sizeBytes).toBe(3);
    const seen: Buffer[] = [];
    for await (const chunk of again.existing()) seen.push(Buffer.from(chunk));
    expect(Buffer.concat(seen).toString()).toBe('abc');
    await again.write(Buffer.from('def'));
    await again.close();
    await workspace.commitPartial('ses_1', 'big.bin');
    expect((await readFile(join(dataDir, 'workspaces/ses_1/big.bin'))).toString()).toBe('abcdef');
    await expect(workspace.writeFile('ses_1', 'huge.bin', chunks('x'.repeat(50), 'y'.repeat(60)), { maxBytes: 100 })).rejects.toMatchObject({
      code: 'request_too_large',
    });
    expect(await workspace.partialSize('ses_1', 'huge.bin')).toBeUndefined();
    expect(await workspace.stat('ses_1', 'huge.bin')).toBeUndefined();
  });
});
