import { Router } from 'express';
import { requireSession, type PaperExtractions, type SessionStore } from '../gateway/index.js';

export interface ExtractionRoutesDeps {
  sessions: SessionStore;
  paperExtractions: PaperExtractions;
}

/**
 * Extraction jobs (GATEWAY.md §10), for audit and the page: read-only. Extracting is the agent's
 * paper_extract_pdf call (audited, limited); HTTP never starts one.
 */
export function extractionRoutes(deps: ExtractionRoutesDeps): Router {
  const router = Router();

  router.get('/sessions/:id/extraction-jobs', async (req, res) => {
    const session = await requireSession(deps.sessions, req.params.id);
    res.json({ jobs: await deps.paperExtractions.listJobs(session.id) });
  });

  router.get('/extraction-jobs/:id', async (req, res) => {
    res.json(await deps.paperExtractions.getJob(req.params.id));
  });

  return router;
}
