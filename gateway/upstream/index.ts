export { UpstreamClient, type UpstreamClientOptions, type UpstreamCallOptions, messageBytesFor } from './upstreamClient.js';
export { liveChildren, killGroup, reapLeftoverGroups, recordProcessGroupsIn, processStartTicks } from './childGroups.js';
export type { UpstreamTarget, InProcessServer } from './upstreamTarget.js';
export { abortIsolatingFetch } from './abortIsolatingFetch.js';
export { sizeBoundedFetch, type SizeBoundedFetchOptions } from './sizeBoundedFetch.js';
export type { ClientRequests } from './clientRequests.js';
