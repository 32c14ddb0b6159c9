export { SourceRegistry, type SourceEntry } from './sourceRegistry.js';
export { type GovernedTool, type HiddenTool, type UpstreamToolDefinition } from './governedTool.js';
export { compileInputSchema, compileOnFirstUse, assertValid } from './compileInputSchema.js';
export { deriveCustomTools, customItemNames, customToolId, toolDefinitionHash, AGENT_TOOL_NAME, MAX_TOOLS_PER_SERVER, TASK_ONLY_REASON } from './customTools.js';
export { lazySourceServer } from './lazySourceServer.js';
