import type {
  ArtifactPlanPatch, ArtifactPlanRecord, ArtifactStore, DownloadJobPatch, DownloadJobRecord, DownloadJobState,
} from '../../gateway/core/index.js';
import { byKey, copy, duplicateKey } from './memoryRows.js';

/** Artifact plans and download jobs in memory, ordered like the embedded store. */
export class MemoryArtifactStore implements ArtifactStore {
  private readonly plans = new Map<string, ArtifactPlanRecord>();
  private readonly jobs = new Map<string, DownloadJobRecord>();

  async addPlan(plan: ArtifactPlanRecord): Promise<void> {
    if (this.plans.has(plan.id)) throw duplicateKey('artifact_plans', plan.id);
    this.plans.set(plan.id, copy(plan));
  }

  async decidePlan(id: string, patch: ArtifactPlanPatch): Promise<boolean> {
    const plan = this.plans.get(id);
    if (!plan) return false;
    this.plans.set(id, { ...plan, ...copy(patch) });
    return true;
  }

  async getPlan(id: string): Promise<ArtifactPlanRecord | undefined> {
    const plan = this.plans.get(id);
    return plan && copy(plan);
  }

  async listPlans(sessionId: string): Promise<ArtifactPlanRecord[]> {
    return byKey([...this.plans.values()].filter((p) => p.sessionId === sessionId), (p) => p.createdAt).map(copy);
  }

  async addJob(job: DownloadJobRecord): Promise<void> {
    if (this.jobs.has(job.id)) throw duplicateKey('download_jobs', job.id);
    this.jobs.set(job.id, copy(job));
  }

  async updateJob(id: string, patch: DownloadJobPatch): Promise<DownloadJobRecord | undefined> {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    const updated = { ...job, ...copy(defined) } as DownloadJobRecord;
    this.jobs.set(id, updated);
    return copy(updated);
  }

  async getJob(id: string): Promise<DownloadJobRecord | undefined> {
    const job = this.jobs.get(id);
    return job && copy(job);
  }

  async listJobs(sessionId: string): Promise<DownloadJobRecord[]> {
    return byKey([...this.jobs.values()].filter((j) => j.sessionId === sessionId), (j) => j.createdAt).map(copy);
  }

  async listJobsIn(states: readonly DownloadJobState[]): Promise<DownloadJobRecord[]> {
    return byKey([...this.jobs.values()].filter((j) => states.includes(j.state)), (j) => j.createdAt).map(copy);
  }
}
