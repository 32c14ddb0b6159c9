import { Router } from 'express';
import { GatewayError, type Broker, type SecretScrubber, type SourceEntry, type SourceRegistry } from '../gateway/index.js';
import { scrubbedJson } from './scrubbedJson.js';

export interface CatalogRoutesDeps {
  registry: SourceRegistry;
  broker: Broker;
  /** Discovery errors quote upstreams: every answer is scrubbed. */
  secrets: SecretScrubber;
}

/** The source catalog: what exists, what discovery found, what is hidden and why, limiter state. */
export function catalogRoutes(deps: CatalogRoutesDeps): Router {
  const router = Router();
  const sourceOr404 = (id: string): SourceEntry => {
    const entry = deps.registry.get(id);
    if (!entry) throw new GatewayError('not_found', `No source ${id.slice(0, 80)}; list them with GET /api/catalog/sources.`);
    return entry;
  };
  router.use('/catalog', scrubbedJson(deps.secrets));

  router.get('/catalog/sources', (_req, res) => {
    res.json({ sources: deps.registry.sources().map(summary) });
  });

  router.post('/catalog/reload', async (_req, res) => {
    await deps.registry.discoverAll();
    res.json({ sources: deps.registry.sources().map(summary) });
  });

  router.get('/catalog/sources/:id', (req, res) => {
    const entry = sourceOr404(req.params.id);
    res.json({ source: { ...summary(entry), manifest: entry.manifest } });
  });

  router.get('/catalog/sources/:id/status', (req, res) => {
    const entry = sourceOr404(req.params.id);
    res.json({
      id: entry.manifest.id,
      enabled: entry.enabled,
      discovery: entry.discovery,
      tools: entry.tools.map((t) => t.name),
      hidden: entry.hidden,
      limiter: deps.broker.limiterState(entry.manifest.id),
    });
  });

  router.get('/catalog/sources/:id/tools', (req, res) => {
    const entry = sourceOr404(req.params.id);
    res.json({ tools: entry.tools.map((t) => toolView(entry, t.toolId)) });
  });

  router.get('/catalog/tools', (req, res) => {
    const words = String(req.query.q ?? '')
      .toLowerCase()
      .split(/\s+/)
      .filter(Boolean);
    const scored = deps.registry
      .sources()
      .flatMap((entry) => entry.tools.map((t) => ({ ...toolView(entry, t.toolId), score: routingScore(entry, t.toolId, words) })))
      .filter((t) => words.length === 0 || t.score > 0)
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
    res.json({ tools: scored });
  });
  return router;
}

function summary(entry: SourceEntry) {
  const m = entry.manifest;
  return {
    id: m.id,
    displayName: m.displayName,
    description: m.description,
    type: m.type,
    version: m.version,
    license: m.license,
    enabled: entry.enabled,
    discovery: entry.discovery,
    toolCount: entry.tools.length,
    hiddenCount: entry.hidden.length,
  };
}

function toolView(entry: SourceEntry, toolId: string) {
  const tool = entry.tools.find((t) => t.toolId === toolId)!;
  return {
    name: tool.name,
    sourceId: tool.sourceId,
    toolId: tool.toolId,
    title: tool.title,
    description: tool.description,
    idempotent: tool.idempotent,
    routingKeywords: keywordsOf(entry, toolId),
    inputSchema: tool.inputSchema,
  };
}

/** Generic (custom) tools have no keyword routing: only the manifest's keywords count. */
function keywordsOf(entry: SourceEntry, toolId: string): string[] {
  return entry.manifest.tools.find((t) => t.id === toolId)?.routingKeywords ?? [];
}

function routingScore(entry: SourceEntry, toolId: string, words: string[]): number {
  const keywords = keywordsOf(entry, toolId).map((k) => k.toLowerCase());
  return words.filter((w) => keywords.some((k) => k.includes(w) || w.includes(k))).length;
}
