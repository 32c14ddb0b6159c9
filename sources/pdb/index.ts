import type { BuiltinSource } from '../shared/sourceDefinition.js';
import { pdbManifest } from './manifest.js';
import { createPdbServer } from './pdbServer.js';

/** The RCSB PDB built-in source. */
export const pdbSource: BuiltinSource = { manifest: pdbManifest, createServer: createPdbServer };
