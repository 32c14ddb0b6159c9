import { GatewayError, aboutArgument, type ArtifactStore, type PlannedCandidate, type SessionWorkspace } from '../core/index.js';

/**
 * Chooses and reserves where a download goes, one Session at a time (so two downloads of one turn
 * never pick the same name): the agent's `destinationPath` (refused when a completed file or another
 * download holds it), or a failed job's part file of the same candidate (a retry resumes it), or
 * `downloads/<sourceId>/<filename>`, numbered on a clash. A reservation is an empty part file on
 * disk plus an in-memory mark, released when the job ends.
 */
export class Destinations {
  private readonly active = new Set<string>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly workspace: SessionWorkspace, private readonly store: ArtifactStore) {}

  async reserve(sessionId: string, candidate: PlannedCandidate, wanted?: string): Promise<string> {
    return this.exclusive(sessionId, async () => {
      const path = wanted !== undefined ? await this.explicit(sessionId, candidate, wanted) : await this.chosen(sessionId, candidate);
      // A symbolic link on the way out is found only when the file is opened.
      const open = () => this.workspace.openPartial(sessionId, path);
      const part = await (wanted !== undefined ? aboutArgument('destinationPath', open) : open());
      await part.close();
      this.active.add(key(sessionId, path));
      return path;
    });
  }

  /** Ends a reservation; an empty part file (nothing was fetched) is removed. */
  async release(sessionId: string, path: string): Promise<void> {
    this.active.delete(key(sessionId, path));
    if ((await this.workspace.partialSize(sessionId, path)) === 0) await this.workspace.discardPartial(sessionId, path);
  }

  /** Marks a path in use (a retried job) without touching the disk; false when it already is. */
  claim(sessionId: string, path: string): boolean {
    if (this.active.has(key(sessionId, path))) return false;
    this.active.add(key(sessionId, path));
    return true;
  }

  private async explicit(sessionId: string, candidate: PlannedCandidate, wanted: string): Promise<string> {
    const path = await aboutArgument('destinationPath', () => this.workspace.checkPath(wanted));
    if (await this.workspace.stat(sessionId, path)) {
      throw new GatewayError('conflict', `"${path.slice(0, 200)}" already exists and completed files are never overwritten; choose another destinationPath.`, {
        details: { field: 'destinationPath' },
      });
    }
    const partial = await this.workspace.partialSize(sessionId, path);
    if (this.active.has(key(sessionId, path)) || (partial !== undefined && !(await this.resumable(sessionId, candidate, path)))) {
      throw new GatewayError('conflict', `Another download is writing "${path.slice(0, 200)}"; choose another destinationPath.`, { details: { field: 'destinationPath' } });
    }
    return path;
  }

  private async chosen(sessionId: string, candidate: PlannedCandidate): Promise<string> {
    const jobs = await this.store.listJobs(sessionId);
    for (const job of jobs.reverse()) {
      if (job.candidateId === candidate.id && (await this.resumable(sessionId, candidate, job.destinationPath))) return job.destinationPath;
    }
    return this.workspace.freePath(sessionId, `downloads/${candidate.sourceId}/${candidate.filename}`);
  }

  /** A part file left by a failed or interrupted job of the same candidate, not in use now. */
  private async resumable(sessionId: string, candidate: PlannedCandidate, path: string): Promise<boolean> {
    if (this.active.has(key(sessionId, path))) return false;
    if (!((await this.workspace.partialSize(sessionId, path)) ?? 0)) return false;
    const jobs = await this.store.listJobs(sessionId);
    return jobs.some((j) => j.destinationPath === path && j.candidateId === candidate.id && j.state === 'failed');
  }

  private async exclusive<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(sessionId) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(work);
    this.queues.set(sessionId, next);
    try {
      return await next;
    } finally {
      if (this.queues.get(sessionId) === next) this.queues.delete(sessionId);
    }
  }
}

function key(sessionId: string, path: string): string {
  return `${sessionId}\u0000${path}`;
}
