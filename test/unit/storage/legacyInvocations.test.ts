import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '../../../storage/index.js';
import { invocationRows } from '../../../storage/invocationRows.js';
import { interruptedInvocation, silentLogger, type InvocationRecord } from '../../../gateway/core/index.js';

let dir: string;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const intent = (id: string) => ({ id, sessionId: 'ses_old', projectId: 'default', toolName: 'mcp__x__y', origin: 'agent' as const, argumentsHash: null, startedAt: '2026-11-01T10:00:00.000Z' });

describe('invocation rows an older version kept in its database', () => {
  it('move into the audit log; one it left running (killed mid-call) is interrupted at the start-up time, as that version would have made it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-legacy-'));
    const old = await openStorage({ dataDir: dir, log: silentLogger });
    const answered: InvocationRecord = { ...interruptedInvocation(intent('inv_answered'), '2026-11-01T10:00:01.000Z'), status: 'ok', errorCode: null, attempts: 1 };
    // How the older version stored a call in flight: its intent as a row with status `running`.
    const running = invocationRows.toParams(interruptedInvocation(intent('inv_running'), '2026-11-01T10:00:00.000Z'));
    running[invocationRows.columns.indexOf('status')] = 'running';
    await old.database.write(invocationRows.insertSql, invocationRows.toParams(answered));
    await old.database.write(invocationRows.insertSql, running);
    await old.close();

    const startedAt = new Date('2026-12-05T08:00:00.000Z');
    const reopened = await openStorage({ dataDir: dir, log: silentLogger, now: () => startedAt });
    expect(await reopened.invocations.get('inv_answered')).toMatchObject({ status: 'ok', attempts: 1 });
    expect(await reopened.invocations.get('inv_running')).toMatchObject({ status: 'interrupted', errorCode: 'interrupted', endedAt: startedAt.toISOString() });
    expect(reopened.database.all('SELECT id FROM invocations')).toEqual([]);
    await reopened.close();
  });
});
