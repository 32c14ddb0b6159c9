import { createHash } from 'node:crypto';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import {
  ClockLimiter, GatewayError, aboutArgument, leaveOnAbort, StoppableWork, linkSignals, workspaceResourceUri, type ArtifactStore, type Clock, type EventHub, type ExtractionJobRecord,
  type ExtractionJobStatus, type ExtractionJobUpdate, type ExtractionStore, type Logger, type NewId, type SessionRecord, type SessionWorkspace,
} from '../core/index.js';
import type { ExtractionManifest } from './buildExtraction.js';
import { extractPdfText } from './extractPdfText.js';
import type { ExtractionLimits } from './extractionLimits.js';
import { outputPaths } from './outputPaths.js';
import type { PdfWorkers } from './pdfWorkers.js';
import { isPdfMagic } from './sniffPdf.js';

/** Characters of the text returned inline, so a model can decide whether to read on. */
export const PREVIEW_CHARS = 2000;
/** A PDF is hashed in pieces of this many bytes before its job runs. */
const HASH_PIECE_BYTES = 1 << 20;

export interface PaperExtractionsDeps {
  store: ExtractionStore;
  artifacts: ArtifactStore;
  workspace: SessionWorkspace;
  events: EventHub;
  clock: Clock;
  newId: NewId;
  log: Logger;
  limits: ExtractionLimits;
  workers: PdfWorkers;
  /** Extractions running at once (default 2); more wait in a queue. */
  concurrency?: number;
  /** Longest wait in that queue, in ms (default 60 s), then `queue_timeout`. */
  queueTimeoutMs?: number;
}

/** One paper_extract_pdf call: exactly one of `artifactJobId` and `path`. */
export interface ExtractionAsk {
  session: SessionRecord;
  invocationId: string;
  artifactJobId?: string;
  path?: string;
  signal: AbortSignal;
  onProgress?: (progress: Progress) => void;
}

/** The tool's result (seed §6.3). */
export interface PaperExtractionResult {
  status: 'completed';
  /** True when the same bytes were extracted before in this Session and that extraction is returned. */
  reused: boolean;
  extractionId: string;
  acquisitionId: string;
  pdfPath: string;
  textPath: string;
  textResourceUri: string;
  manifestPath: string;
  manifestResourceUri: string;
  pageCount: number;
  characterCount: number;
  warnings: ExtractionManifest['warnings'];
  metadata: ExtractionManifest['metadata'];
  sha256: string;
  /** The first characters of the text. */
  textPreview: string;
  textTruncated: boolean;
}

/**
 * paper_extract_pdf's work (seed §6.3, §9): the PDF of a completed DownloadJob of the Session or a file
 * already in its workspace, checked by its bytes; the earlier extraction when the Session extracted the
 * same bytes before; otherwise an ExtractionJob (persisted at every transition) run under the
 * extraction limiter in a limited worker, `<name>.txt` and `<name>.manifest.json` written beside the
 * PDF, and a PaperAcquisition. A failed extraction never touches the download.
 */
export class PaperExtractions {
  private readonly limiter: ClockLimiter;
  /** Extractions under way, by Session and sha256: a second call for the same bytes waits for the first. */
  private readonly inFlight = new Map<string, Promise<PaperExtractionResult>>();
  /** Every call under way; at `close` each extraction stops and its job stays as last saved. */
  private readonly work = new StoppableWork();

  constructor(private readonly deps: PaperExtractionsDeps) {
    this.limiter = new ClockLimiter({ concurrency: deps.concurrency ?? 2, minTimeMs: 0 }, deps.clock);
  }

  extract(ask: ExtractionAsk): Promise<PaperExtractionResult> {
    return this.work.run(ask.signal, (signal) => this.extractNow({ ...ask, signal }));
  }

  /**
   * The gateway is stopping: stops every extraction and waits for them. A stopped job is left as
   * last saved (queued or running), so the next start fails it as interrupted by the restart
   * (failUnfinishedExtractions); closing its Session would have recorded it as cancelled by the client.
   */
  close(): Promise<void> {
    return this.work.stop(stoppingError());
  }

  private async extractNow(ask: ExtractionAsk): Promise<PaperExtractionResult> {
    const { session } = ask;
    const pdfPath = await this.pdfPathOf(ask);
    // A path the agent gave is checked lexically here and for symbolic links when it is read.
    const fingerprint = () => this.fingerprint(session.id, pdfPath);
    const { sha256, sizeBytes } = await (ask.path !== undefined ? aboutArgument('path', fingerprint) : fingerprint());
    const earlier = await this.deps.store.findCompleted(session.id, sha256);
    if (earlier) return this.resultOf(earlier, true);
    const key = `${session.id}:${sha256}`;
    const underWay = this.inFlight.get(key);
    // The same bytes twice in one turn: one job. If the first call fails (or its client cancels), this one runs its own.
    const first = underWay ? await this.outcomeOf(underWay, ask.signal) : undefined;
    if (first) return { ...first, reused: true };
    if (underWay) return this.extractNow(ask);
    const run = this.createJob(ask, pdfPath, sha256, sizeBytes).then((job) => this.runJob(job, ask));
    this.inFlight.set(key, run);
    try {
      return await run;
    } finally {
      if (this.inFlight.get(key) === run) this.inFlight.delete(key);
    }
  }

  /** The earlier call's result (undefined when it failed), waited for until this call is cancelled or the gateway stops. */
  private outcomeOf(earlier: Promise<PaperExtractionResult>, signal: AbortSignal): Promise<PaperExtractionResult | undefined> {
    // The earlier call's failure is no answer here (undefined); only this call's abort rejects.
    return leaveOnAbort(earlier.catch(() => undefined), signal).catch(() => {
      throw this.work.stopped ? stoppingError() : new GatewayError('cancelled', 'The extraction was cancelled while it waited for the same PDF\'s extraction.');
    });
  }

  /** The Session's jobs in creation order (admin API). */
  listJobs(sessionId: string): Promise<ExtractionJobRecord[]> {
    return this.deps.store.listJobs(sessionId);
  }

  /** One job with its acquisition, or `not_found` (admin API). */
  async getJob(id: string) {
    const job = await this.deps.store.getJob(id);
    if (!job) throw new GatewayError('not_found', `No extraction job ${id.slice(0, 80)}; list a Session's jobs at /api/sessions/:id/extraction-jobs.`);
    return { job, acquisition: (await this.deps.store.findAcquisitionByJob(id)) ?? null };
  }

  private async pdfPathOf(ask: ExtractionAsk): Promise<string> {
    if ((ask.artifactJobId === undefined) === (ask.path === undefined)) {
      throw new GatewayError('invalid_input', 'Pass exactly one of artifactJobId (a completed download) and path (a PDF in the session workspace).');
    }
    if (ask.path !== undefined) return aboutArgument('path', () => this.deps.workspace.checkPath(ask.path!));
    const download = await this.deps.artifacts.getJob(ask.artifactJobId!);
    if (!download || download.sessionId !== ask.session.id) {
      throw new GatewayError('not_found', `No download job ${ask.artifactJobId!.slice(0, 80)} in this session; pass the jobId an artifact_download of this session returned.`);
    }
    if (download.state !== 'completed') {
      throw new GatewayError('conflict', `Download job ${download.id} is ${download.state}, not completed; extract it after artifact_download completed.`, {
        details: { state: download.state },
      });
    }
    return download.destinationPath;
  }

  /**
   * The PDF's sha256 and size, hashed in pieces: a call waiting for the same bytes or for a slot holds
   * none of them (the bytes are read once its job holds a slot).
   */
  private async fingerprint(sessionId: string, pdfPath: string): Promise<{ sha256: string; sizeBytes: number }> {
    const { sizeBytes } = await this.statPdf(sessionId, pdfPath);
    const hash = createHash('sha256');
    for (let offset = 0; offset === 0 || offset < sizeBytes; ) {
      const piece = await this.deps.workspace.read(sessionId, pdfPath, { offset, length: Math.min(HASH_PIECE_BYTES, sizeBytes - offset) });
      if (offset === 0) this.requirePdfMagic(pdfPath, piece);
      if (piece.length === 0) break;
      hash.update(piece);
      offset += piece.length;
    }
    return { sha256: hash.digest('hex'), sizeBytes };
  }

  private async readPdf(sessionId: string, pdfPath: string): Promise<Uint8Array> {
    const file = await this.statPdf(sessionId, pdfPath);
    const bytes = await this.deps.workspace.read(sessionId, pdfPath, { offset: 0, length: file.sizeBytes });
    this.requirePdfMagic(pdfPath, bytes);
    return bytes;
  }

  private async statPdf(sessionId: string, pdfPath: string) {
    const file = await this.deps.workspace.stat(sessionId, pdfPath);
    if (!file) {
      throw new GatewayError('not_found', `${pdfPath.slice(0, 200)} is not a file of this session's workspace (resources/list shows them); pass a PDF's path, or download or upload the PDF first.`);
    }
    if (file.sizeBytes > this.deps.limits.maxBytes) {
      throw new GatewayError('request_too_large', `${pdfPath} is ${file.sizeBytes} bytes, more than the ${this.deps.limits.maxBytes} allowed for extraction.`, {
        details: { sizeBytes: file.sizeBytes, maxBytes: this.deps.limits.maxBytes },
      });
    }
    return file;
  }

  private requirePdfMagic(pdfPath: string, head: Uint8Array): void {
    if (!isPdfMagic(head)) {
      throw new GatewayError('unsupported_media_type', `${pdfPath} is not a PDF (its bytes do not start with %PDF-), whatever its name says; pass a PDF.`);
    }
  }

  private async createJob(ask: ExtractionAsk, pdfPath: string, sha256: string, sizeBytes: number): Promise<ExtractionJobRecord> {
    const job: ExtractionJobRecord = {
      id: this.deps.newId('ext'), sessionId: ask.session.id, projectId: ask.session.projectId, invocationId: ask.invocationId,
      input: ask.artifactJobId !== undefined ? 'artifact_job' : 'path', downloadJobId: ask.artifactJobId ?? null, pdfPath, sha256, sizeBytes,
      status: 'queued', pageCount: null, characterCount: null, textPath: null, manifestPath: null, warnings: [], errorCode: null, errorMessage: null,
      createdAt: this.nowIso(), startedAt: null, endedAt: null,
    };
    await this.deps.store.addJob(job);
    this.publish(job);
    return job;
  }

  private async runJob(queued: ExtractionJobRecord, ask: ExtractionAsk): Promise<PaperExtractionResult> {
    const release = await this.slot(queued, ask.signal);
    try {
      const running = await this.transition(queued, ['queued'], { status: 'running', startedAt: this.nowIso() });
      const bytes = await this.readPdf(running.sessionId, running.pdfPath);
      const extraction = await extractPdfText({
        bytes, limits: this.deps.limits, clock: this.deps.clock, workers: this.deps.workers, signal: ask.signal,
        onPage: (page, pageCount) => {
          ask.onProgress?.({ progress: page, total: pageCount, message: `page ${page} of ${pageCount}` });
          this.deps.events.publish('extraction.progress', running.sessionId, { jobId: running.id, page, pageCount });
        },
      });
      if (extraction.sha256 !== running.sha256) {
        throw new GatewayError('conflict', `${running.pdfPath} changed while its extraction waited; call paper_extract_pdf again.`);
      }
      const paths = await outputPaths(this.deps.workspace, running.sessionId, running.pdfPath);
      await this.write(running.sessionId, paths.textPath, extraction.text);
      await this.write(running.sessionId, paths.manifestPath, `${JSON.stringify(extraction.manifest, null, 2)}\n`);
      const completed = await this.transition(running, ['running'], {
        status: 'completed', pageCount: extraction.manifest.pageCount, characterCount: extraction.manifest.characterCount, ...paths,
        warnings: extraction.manifest.warnings.map((w) => w.code), endedAt: this.nowIso(),
      });
      const { metadata } = extraction.manifest;
      await this.deps.store.addAcquisition({
        id: this.deps.newId('acq'), sessionId: completed.sessionId, projectId: completed.projectId, extractionJobId: completed.id,
        downloadJobId: completed.downloadJobId, pdfPath: completed.pdfPath, sha256: completed.sha256, title: metadata.title, authors: metadata.authors,
        doi: metadata.doi, createdAt: this.nowIso(),
      });
      return await this.resultOf(completed, false, extraction.manifest, extraction.text);
    } catch (error) {
      throw await this.end(queued, GatewayError.from(error), error);
    } finally {
      release();
    }
  }

  /** A slot of the extraction limiter; waiting longer than the queue timeout fails the job with `queue_timeout`. */
  private async slot(job: ExtractionJobRecord, signal: AbortSignal): Promise<() => void> {
    const timeout = new AbortController();
    const timer = new AbortController();
    void this.deps.clock.sleep(this.deps.queueTimeoutMs ?? 60_000, timer.signal).then(() => timeout.abort(), () => undefined);
    const linked = linkSignals([signal, timeout.signal]);
    try {
      return await this.limiter.acquire(linked.signal);
    } catch (error) {
      const reason = signal.aborted
        ? new GatewayError('cancelled', 'The extraction was cancelled while it waited for a worker.')
        : new GatewayError('queue_timeout', 'Too many PDFs are being extracted at once; try again in a minute.', { retryable: true });
      throw await this.end(job, reason, error);
    } finally {
      timer.abort();
      linked.release();
    }
  }

  /** Fails (or cancels) a job that has not ended yet, and hands back the error to throw; a stop leaves it as it is. */
  private async end(job: ExtractionJobRecord, error: GatewayError, cause: unknown): Promise<GatewayError> {
    if (this.work.stopped) return stoppingError();
    if (error.code === 'internal') this.deps.log.error({ err: cause, jobId: job.id }, 'extraction failed unexpectedly');
    const status = error.code === 'cancelled' ? 'cancelled' : 'failed';
    const update = { status, errorCode: error.code, errorMessage: error.message, endedAt: this.nowIso() } as const;
    if (await this.deps.store.updateJob(job.id, ['queued', 'running'], update)) this.publish({ ...job, ...update });
    return error;
  }

  private async transition(job: ExtractionJobRecord, from: ExtractionJobStatus[], update: ExtractionJobUpdate): Promise<ExtractionJobRecord> {
    if (!(await this.deps.store.updateJob(job.id, from, update))) {
      throw new GatewayError('conflict', `Extraction job ${job.id} changed state meanwhile; call paper_extract_pdf again.`);
    }
    const next = { ...job, ...update };
    this.publish(next);
    return next;
  }

  private async write(sessionId: string, path: string, text: string): Promise<void> {
    const bytes = Buffer.from(text, 'utf8');
    const file = await this.deps.workspace.writeFile(sessionId, path, (async function* () { yield bytes; })(), { maxBytes: bytes.length });
    this.deps.events.publish('workspace.file', sessionId, { path: file.path, sizeBytes: file.sizeBytes });
  }

  private async resultOf(job: ExtractionJobRecord, reused: boolean, manifest?: ExtractionManifest, text?: string): Promise<PaperExtractionResult> {
    const acquisition = await this.deps.store.findAcquisitionByJob(job.id);
    if (!acquisition || !job.textPath || !job.manifestPath) {
      throw new GatewayError('internal', `Extraction job ${job.id} completed without its outputs; call paper_extract_pdf again.`);
    }
    const m = manifest ?? (JSON.parse((await this.readAll(job.sessionId, job.manifestPath)).toString('utf8')) as ExtractionManifest);
    const preview = text !== undefined ? [...text.slice(0, PREVIEW_CHARS * 2)].slice(0, PREVIEW_CHARS).join('') : await this.preview(job);
    return {
      status: 'completed', reused, extractionId: job.id, acquisitionId: acquisition.id, pdfPath: job.pdfPath, textPath: job.textPath,
      textResourceUri: workspaceResourceUri(job.sessionId, job.textPath), manifestPath: job.manifestPath,
      manifestResourceUri: workspaceResourceUri(job.sessionId, job.manifestPath), pageCount: m.pageCount, characterCount: m.characterCount,
      warnings: m.warnings, metadata: m.metadata, sha256: job.sha256, textPreview: preview, textTruncated: m.characterCount > PREVIEW_CHARS,
    };
  }

  private async preview(job: ExtractionJobRecord): Promise<string> {
    // UTF-8 is at most 4 bytes a character: this many bytes hold the preview; a cut last character is dropped.
    const head = await this.deps.workspace.read(job.sessionId, job.textPath!, { offset: 0, length: PREVIEW_CHARS * 4 });
    return [...head.toString('utf8').replace(/\uFFFD$/, '')].slice(0, PREVIEW_CHARS).join('');
  }

  private async readAll(sessionId: string, path: string): Promise<Buffer> {
    const file = await this.deps.workspace.stat(sessionId, path);
    return this.deps.workspace.read(sessionId, path, { offset: 0, length: file?.sizeBytes ?? 0 });
  }

  private publish(job: ExtractionJobRecord): void {
    this.deps.events.publish('extraction.job', job.sessionId, job);
  }

  private nowIso(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}

function stoppingError(): GatewayError {
  return new GatewayError('tool_unavailable', 'The gateway is stopping. Call paper_extract_pdf again once it is back.', { retryable: true });
}
