import type { BuiltinSource } from '../shared/sourceDefinition.js';
import { biorxivManifest } from './manifest.js';
import { createRxivServer } from './rxivServer.js';

/** The api.biorxiv.org client and server factory, shared with the medRxiv source. */
export { createRxivServer } from './rxivServer.js';

/** The bioRxiv built-in source; medRxiv runs on the same api.biorxiv.org client. */
export const biorxivSource: BuiltinSource = {
  manifest: biorxivManifest,
  createServer: (deps) => createRxivServer(deps, { manifest: biorxivManifest, server: 'biorxiv', provider: 'bioRxiv' }),
};
