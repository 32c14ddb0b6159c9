import type { Cas } from '../../gateway/core/index.js';
import type { AuditLog } from './auditLog.js';

/**
 * The CAS the gateway reads: blobs the audit log carries (arguments and results of tool calls),
 * then the file CAS (`put`, and blobs stored before the audit log existed).
 */
export class AuditCas implements Cas {
  constructor(
    private readonly audit: AuditLog,
    private readonly files: Cas,
  ) {}

  put(bytes: Uint8Array): Promise<string> {
    return this.files.put(bytes);
  }

  async get(hash: string): Promise<Buffer | undefined> {
    return (await this.audit.blob(hash)) ?? this.files.get(hash);
  }
}
