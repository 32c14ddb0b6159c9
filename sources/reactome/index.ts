import type { BuiltinSource } from '../shared/sourceDefinition.js';
import { reactomeManifest } from './manifest.js';
import { createReactomeServer } from './reactomeServer.js';

/** The Reactome built-in source. */
export const reactomeSource: BuiltinSource = { manifest: reactomeManifest, createServer: createReactomeServer };
