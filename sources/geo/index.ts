import type { BuiltinSource } from '../shared/sourceDefinition.js';
import { geoManifest } from './manifest.js';
import { createGeoServer } from './geoServer.js';

/** The GEO built-in source. */
export const geoSource: BuiltinSource = { manifest: geoManifest, createServer: createGeoServer };
