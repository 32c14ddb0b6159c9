import type { BuiltinSource } from '../shared/sourceDefinition.js';
import { arxivManifest } from './manifest.js';
import { createArxivServer } from './arxivServer.js';

/** The arXiv built-in source. */
export const arxivSource: BuiltinSource = { manifest: arxivManifest, createServer: createArxivServer };
