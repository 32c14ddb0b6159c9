export { SourceRegistry, type SourceEntry, type SourceRegistryOptions, type DiscoveryState } from './sourceRegistry.js';
export { type GovernedTool, type HiddenTool, deriveBuiltinTools } from './governedTool.js';
export { compileInputSchema, assertValid } from './compileInputSchema.js';
