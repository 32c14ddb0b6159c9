import type { BuiltinSource } from '../shared/sourceDefinition.js';
import { pubmedManifest } from './manifest.js';
import { createPubmedServer } from './pubmedServer.js';

/** The PubMed built-in source. */
export const pubmedSource: BuiltinSource = { manifest: pubmedManifest, createServer: createPubmedServer };
