import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileCas } from '../../storage/index.js';
import { storageAdapters, useStorage, type StorageAdapter } from './storageAdapters.js';

/** What every Cas must do. */
function casContract(adapter: StorageAdapter) {
  const open = useStorage(adapter);

  it('stores bytes under their sha256 and reads them back', async () => {
    const { cas } = (await open()).storage;
    const bytes = new TextEncoder().encode('{"records":[]}');
    const hash = await cas.put(bytes);
    expect(hash).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect((await cas.get(hash))?.toString()).toBe('{"records":[]}');
  });

  it('storing the same bytes twice (even at once) is a no-op and returns the same hash', async () => {
    const { cas } = (await open()).storage;
    const [a, b] = await Promise.all([cas.put(new TextEncoder().encode('same')), cas.put(new TextEncoder().encode('same'))]);
    const c = await cas.put(new TextEncoder().encode('same'));
    expect(new Set([a, b, c]).size).toBe(1);
    expect((await cas.get(a))?.toString()).toBe('same');
  });

  it('the stored blob cannot be changed through the bytes given or the buffer read', async () => {
    const { cas } = (await open()).storage;
    const bytes = new TextEncoder().encode('immutable');
    const hash = await cas.put(bytes);
    bytes.fill(0);
    (await cas.get(hash))!.fill(0);
    expect((await cas.get(hash))?.toString()).toBe('immutable');
  });

  it('unknown and malformed hashes read as undefined (no path traversal)', async () => {
    const { cas } = (await open()).storage;
    expect(await cas.get('0'.repeat(64))).toBeUndefined();
    expect(await cas.get('../../etc/passwd')).toBeUndefined();
  });

  it('keeps blobs across a restart', async () => {
    const opened = await open();
    const hash = await opened.storage.cas.put(new TextEncoder().encode('kept'));
    const { cas } = (await opened.reopen()).storage;
    expect((await cas.get(hash))?.toString()).toBe('kept');
  });
}

describe.each(storageAdapters)('Cas contract: $name', casContract);

describe('FileCas on disk', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('lays blobs out as sha256/ab/<hash>, mode 0600, with no temp files left', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-cas-'));
    const cas = new FileCas(join(dir, 'cas'));
    const hash = await cas.put(new TextEncoder().encode('blob'));
    const folder = join(dir, 'cas', 'sha256', hash.slice(0, 2));
    expect(await readdir(folder)).toEqual([hash]);
    expect((await stat(join(folder, hash))).mode & 0o777).toBe(0o600);
  });
});
