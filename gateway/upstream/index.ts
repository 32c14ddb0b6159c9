export { UpstreamClient, type UpstreamClientOptions, type UpstreamCallOptions } from './upstreamClient.js';
export { liveChildren, killGroup } from './processGroupStdioTransport.js';
export type { UpstreamTarget, InProcessServer } from './upstreamTarget.js';
export { abortIsolatingFetch } from './abortIsolatingFetch.js';
