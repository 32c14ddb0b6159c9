import type { BuiltinSource } from '../shared/sourceDefinition.js';
import { chemblManifest } from './manifest.js';
import { createChemblServer } from './chemblServer.js';

/** The ChEMBL built-in source. */
export const chemblSource: BuiltinSource = { manifest: chemblManifest, createServer: createChemblServer };
