import type { BuiltinSource } from '../shared/sourceDefinition.js';
import { clinvarManifest } from './manifest.js';
import { createClinvarServer } from './clinvarServer.js';

/** The ClinVar built-in source. */
export const clinvarSource: BuiltinSource = { manifest: clinvarManifest, createServer: createClinvarServer };
