export { runDownload, type DownloadEnvironment, type DownloadObserver, type DownloadOutcome, type DownloadRequest } from './downloadEngine.js';
export { checkDownloadUrl, directUrl, mirroredUrl, type PhysicalUrl } from './downloadUrls.js';
export { FileHashes, type ChecksumAlgorithm } from './fileHashes.js';
export { retryAfterMsOf, MAX_REDIRECTS } from './httpAttempt.js';
