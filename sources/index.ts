// The built-in sources as the registry sees them: manifests now, server code on first use.
export { builtinSources, findBuiltinSource } from './builtinSources.js';
export type { BuiltinSource, LazySource, SourceDeps } from './shared/sourceDefinition.js';
