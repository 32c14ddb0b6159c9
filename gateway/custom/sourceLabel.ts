import { readableNamePart, type CustomServerConfig } from '../../catalog/index.js';

/**
 * The readable name a custom server's tools are listed under (`mcp__<label>__<tool>`): the slug of
 * its display name. None — so its tools keep `mcp__custom-<12 hex>__…` — when the slug is empty,
 * looks like a Source ID, equals a built-in source's id, or an older server already has it (first
 * come keeps its names: adding a server never renames another one's tools).
 */
export function customSourceLabel(config: CustomServerConfig, servers: readonly CustomServerConfig[], reservedIds: ReadonlySet<string>): string | undefined {
  const slug = readableNamePart(config.name);
  if (!slug || slug.startsWith('custom-') || reservedIds.has(slug)) return undefined;
  const older = servers.some(
    (other) =>
      other.id !== config.id &&
      readableNamePart(other.name) === slug &&
      (other.createdAt < config.createdAt || (other.createdAt === config.createdAt && other.id < config.id)),
  );
  return older ? undefined : slug;
}
