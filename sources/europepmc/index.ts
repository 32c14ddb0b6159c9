import type { BuiltinSource } from '../shared/sourceDefinition.js';
import { europepmcManifest } from './manifest.js';
import { createEuropepmcServer } from './europepmcServer.js';

/** The Europe PMC built-in source. */
export const europepmcSource: BuiltinSource = { manifest: europepmcManifest, createServer: createEuropepmcServer };
