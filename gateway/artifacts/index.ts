export { runDownload, type DownloadEnvironment, type DownloadObserver, type DownloadOutcome, type DownloadRequest } from './downloadEngine.js';
export { checkDownloadUrl, directUrl, mirroredUrl, type PhysicalUrl } from './downloadUrls.js';
export { verifiedSha256, type ChecksumAlgorithm, type FileDigests } from './fileHashes.js';
export { MAX_REDIRECTS } from './httpAttempt.js';
export { findOfferedCandidate, type OfferedCandidate, type OfferedCandidateDeps } from './offeredCandidate.js';
export { runDownloadJob, sizeLimitFor, type JobEnding, type JobRunnerDeps } from './downloadJobRunner.js';
export { Destinations } from './destinations.js';
export { ArtifactDownloads, type ArtifactDownloadResult, type ArtifactDownloadsDeps, type DownloadAsk } from './artifactDownloads.js';
export { artifactDownloadTool, ARTIFACT_DOWNLOAD_TOOL } from './artifactDownloadTool.js';
