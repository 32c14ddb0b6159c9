import { afterEach, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { MIGRATIONS_DIR, bootstrapSchema, migrate } from '../../../storage/migrate.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('migration 002 (permissions)', () => {
  it('turns sessions stored with the historical never_ask into always_allow and starts every epoch at 0', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    bootstrapSchema(db);
    // A database from before the permissions migration: only 001 applied.
    dir = await mkdtemp(join(tmpdir(), 'scigate-migrations-'));
    await copyFile(join(MIGRATIONS_DIR, '001_init.sql'), join(dir, '001_init.sql'));
    await migrate(db, () => new Date(), dir);
    for (const [id, mode] of [['ses_old', 'never_ask'], ['ses_ask', 'ask_for_dangerous']]) {
      db.run("INSERT INTO sessions (id, project_id, transport, approval_mode, created_at) VALUES (?, 'default', 'http', ?, '2026-01-01')", [id!, mode!]);
    }
    expect(await migrate(db, () => new Date())).toContain('002_permissions.sql');
    const rows = db.exec('SELECT id, approval_mode, permission_epoch FROM sessions ORDER BY id')[0]!.values;
    expect(rows).toEqual([
      ['ses_ask', 'ask_for_dangerous', 0],
      ['ses_old', 'always_allow', 0],
    ]);
    db.close();
  });
});
