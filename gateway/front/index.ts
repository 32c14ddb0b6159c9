// The MCP session front: answers `initialize` with only the SDK server loaded, so `scigate stdio`
// connects to its client before storage, sources and the broker are built behind it.
export { connectSessionServer, createSessionServer } from './sessionServer.js';
export type { SessionFeatures, SessionHandlers, SessionHandlersFactory, SessionRequestExtra, SessionServerOptions } from './sessionServer.js';
export { serveStdio } from './stdioFront.js';
export type { StdioFrontOptions, StdioRuntime } from './stdioFront.js';
export { persistSession, endSession } from './sessionLifecycle.js';
export type { SessionLifecycleDeps, SessionStart } from './sessionLifecycle.js';
export { BoundedStdioServerTransport, MAX_STDIO_REQUEST_BYTES } from './boundedStdioServerTransport.js';
export { checkRpcMessage, reusedIdMessage } from './checkRpcMessage.js';
export { rpcError } from './rpcError.js';
export type { RpcError } from './rpcError.js';
export type { RpcRejection } from './checkRpcMessage.js';
export { dropUnderBackpressure, MAX_QUEUED_NOTIFICATION_BYTES, serializeForWire } from './wireMessage.js';
