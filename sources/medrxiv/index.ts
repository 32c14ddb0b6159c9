import type { BuiltinSource } from '../shared/sourceDefinition.js';
import { createRxivServer } from '../biorxiv/index.js';
import { medrxivManifest } from './manifest.js';

/** The medRxiv built-in source: the bioRxiv API client pointed at server "medrxiv". */
export const medrxivSource: BuiltinSource = {
  manifest: medrxivManifest,
  createServer: (deps) => createRxivServer(deps, { manifest: medrxivManifest, server: 'medrxiv', provider: 'medRxiv' }),
};
