import { describe, expect, it } from 'vitest';
import { auditRetentionFlag } from '../../../gateway/commands/wiring.js';
import { parseCommandLine } from '../../../gateway/config/index.js';

const parsed = (argv: string[], env: Record<string, string> = {}) => parseCommandLine(argv, env) as { flags: Parameters<typeof auditRetentionFlag>[0] };

describe('--audit-retention-days', () => {
  it('is unset by default (history kept), or whole days from the flag or SCIGATE_AUDIT_RETENTION_DAYS', () => {
    expect(auditRetentionFlag(parsed(['serve']).flags)).toEqual({});
    expect(auditRetentionFlag(parsed(['serve', '--audit-retention-days', '90']).flags)).toEqual({ auditRetentionDays: 90 });
    expect(auditRetentionFlag(parsed(['stdio'], { SCIGATE_AUDIT_RETENTION_DAYS: '7' }).flags)).toEqual({ auditRetentionDays: 7 });
  });

  it('refuses what is not a whole number of days, naming the flag', () => {
    expect(() => parseCommandLine(['serve', '--audit-retention-days', '0'], {})).toThrow(/--audit-retention-days/);
    expect(() => parseCommandLine(['serve', '--audit-retention-days', 'forever'], {})).toThrow(/--audit-retention-days/);
  });
});
