export { UpstreamClient, type UpstreamClientOptions, type UpstreamCallOptions, messageBytesFor } from './upstreamClient.js';
export { liveChildren, killGroup, reapLeftoverGroups, processStartTicks } from './childGroups.js';
export type { UpstreamTarget, InProcessServer, UpstreamAuth } from './upstreamTarget.js';
export { OAuthManager, PENDING_LOGIN_TTL_MS, type OAuthState, type OAuthStatus, type OAuthManagerOptions } from './oauth/oauthManager.js';
export { upstreamAuthOf } from './oauth/authorizedFetch.js';
export { oauthSignature } from './oauth/oauthSignature.js';
export { abortIsolatingFetch } from './abortIsolatingFetch.js';
export { sizeBoundedFetch, type SizeBoundedFetchOptions } from './sizeBoundedFetch.js';
export type { ClientRequests, ServerNotice } from './clientRequests.js';
