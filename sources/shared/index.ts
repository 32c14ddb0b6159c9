// The kit a source server is written with; sources import these files directly, tests through here.
export { ProviderError, classifyHttpStatus } from './providerError.js';
export { parseRetryAfterMs } from '../../catalog/index.js';
export { providerFetch } from './providerFetch.js';
export { envelope } from './envelope.js';
export { runTool } from './toolResponses.js';
export { parseXml } from './xml.js';
export { createEutilsClient, eutilsMessageError } from './eutilsClient.js';
export type { BuiltinSource, LazySource, SourceDeps } from './sourceDefinition.js';
