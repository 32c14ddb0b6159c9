export { SourceRegistry, type SourceEntry, type SourceRegistryOptions, type DiscoveryState } from './sourceRegistry.js';
export { type GovernedTool, type HiddenTool, type DerivedTools, deriveBuiltinTools } from './governedTool.js';
export { compileInputSchema, assertValid } from './compileInputSchema.js';
export { deriveCustomTools, customToolId, toolDefinitionHash, AGENT_TOOL_NAME, type DerivedCustomTools } from './customTools.js';
export { lazySourceServer } from './lazySourceServer.js';
