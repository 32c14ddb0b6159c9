// The `initialize` answer without the MCP SDK: what every session says about itself, and the early
// answer `scigate stdio` gives before it loads the SDK (gateway/commands/stdioCommand.ts).
export { answerInitializeEarly } from './earlyInitialize.js';
export type { EarlyHandshake, EarlyInitializeOptions } from './earlyInitialize.js';
export { SESSION_CAPABILITIES, SESSION_INSTRUCTIONS, SESSION_SERVER_NAME, SUPPORTED_PROTOCOL_VERSIONS, initializeResult } from './sessionIdentity.js';
export type { InitializeResult } from './sessionIdentity.js';
