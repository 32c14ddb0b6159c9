import type { SourceManifest } from './manifest.js';

/**
 * How messages name a source: a built-in by its id (`pubmed`), a custom server by the name an admin
 * gave it, then its Source ID (`"Lab notes" (custom-3fa2b1c4d5e6)`), so a reader knows which server.
 */
export function sourceLabel(manifest: Pick<SourceManifest, 'id' | 'displayName' | 'type'>): string {
  return manifest.type === 'custom' ? `"${manifest.displayName}" (${manifest.id})` : manifest.id;
}
