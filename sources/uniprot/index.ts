import type { BuiltinSource } from '../shared/sourceDefinition.js';
import { uniprotManifest } from './manifest.js';
import { createUniprotServer } from './uniprotServer.js';

/** The UniProt built-in source. */
export const uniprotSource: BuiltinSource = { manifest: uniprotManifest, createServer: createUniprotServer };
