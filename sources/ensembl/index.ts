import type { BuiltinSource } from '../shared/sourceDefinition.js';
import { ensemblManifest } from './manifest.js';
import { createEnsemblServer } from './ensemblServer.js';

/** The Ensembl built-in source. */
export const ensemblSource: BuiltinSource = { manifest: ensemblManifest, createServer: createEnsemblServer };
