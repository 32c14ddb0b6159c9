/** ExtractionJob lifecycle (seed §9): queued → running → completed | failed | cancelled. */
export type ExtractionJobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** Where the PDF came from: a completed DownloadJob, or a file already in the Session workspace. */
export type ExtractionInput = 'artifact_job' | 'path';

/** One paper_extract_pdf run over one PDF; persisted at every transition. */
export interface ExtractionJobRecord {
  id: string;
  sessionId: string;
  projectId: string;
  /** The paper_extract_pdf Invocation that created it. */
  invocationId: string | null;
  input: ExtractionInput;
  /** Set for `artifact_job` input. */
  downloadJobId: string | null;
  /** The PDF, relative to the Session workspace. */
  pdfPath: string;
  /** sha256 hex of the PDF bytes: the key of "extracted before in this Session". */
  sha256: string;
  sizeBytes: number;
  status: ExtractionJobStatus;
  pageCount: number | null;
  characterCount: number | null;
  /** Workspace-relative outputs, set when completed. */
  textPath: string | null;
  manifestPath: string | null;
  /** Warning codes from the manifest (scanned_page, font_without_unicode, …). */
  warnings: string[];
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
}

/** What a transition may change on a job. */
export type ExtractionJobUpdate = Partial<
  Pick<
    ExtractionJobRecord,
    'status' | 'pageCount' | 'characterCount' | 'textPath' | 'manifestPath' | 'warnings' | 'errorCode' | 'errorMessage' | 'startedAt' | 'endedAt'
  >
>;

/** A paper the Session now holds as text: created only after a successful extraction (seed §9). */
export interface PaperAcquisitionRecord {
  id: string;
  sessionId: string;
  projectId: string;
  extractionJobId: string;
  /** The DownloadJob that fetched the PDF; `null` for an uploaded file. */
  downloadJobId: string | null;
  pdfPath: string;
  sha256: string;
  title: string | null;
  authors: string[];
  doi: string | null;
  createdAt: string;
}
