import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileCas } from '../../storage/index.js';
import type { Cas } from '../../gateway/core/index.js';

let dir: string;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Every Cas implementation must pass this suite. */
const implementations: Array<[string, () => Promise<Cas>]> = [
  ['FileCas', async () => new FileCas(join((dir = await mkdtemp(join(tmpdir(), 'scigate-cas-'))), 'cas'))],
];

describe.each(implementations)('Cas contract: %s', (_name, create) => {
  it('stores bytes under their sha256 and reads them back', async () => {
    const cas = await create();
    const bytes = new TextEncoder().encode('{"records":[]}');
    const hash = await cas.put(bytes);
    expect(hash).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect((await cas.get(hash))?.toString()).toBe('{"records":[]}');
  });

  it('storing the same bytes twice is a no-op and returns the same hash', async () => {
    const cas = await create();
    const a = await cas.put(new TextEncoder().encode('same'));
    const b = await cas.put(new TextEncoder().encode('same'));
    expect(a).toBe(b);
  });

  it('unknown and malformed hashes read as undefined (no path traversal)', async () => {
    const cas = await create();
    expect(await cas.get('0'.repeat(64))).toBeUndefined();
    expect(await cas.get('../../etc/passwd')).toBeUndefined();
  });
});

describe('FileCas on disk', () => {
  it('lays blobs out as sha256/ab/<hash>, mode 0600, with no temp files left', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-cas-'));
    const cas = new FileCas(join(dir, 'cas'));
    const hash = await cas.put(new TextEncoder().encode('blob'));
    const folder = join(dir, 'cas', 'sha256', hash.slice(0, 2));
    expect(await readdir(folder)).toEqual([hash]);
    expect((await stat(join(folder, hash))).mode & 0o777).toBe(0o600);
  });
});
