import { Router } from 'express';
import { createProjectSchema, patchProjectSchema, patchSettingsSchema } from '../catalog/index.js';
import { parseInput, type ConnectorSelection } from '../gateway/index.js';

export interface SettingsRoutesDeps {
  selection: ConnectorSelection;
}

/** Connector selections: global settings, Projects, and the `connectors` of a Session (null = inherit). */
export function settingsRoutes(deps: SettingsRoutesDeps): Router {
  const router = Router();
  const selection = deps.selection;

  router.get('/settings', async (_req, res) => {
    res.json({ settings: { connectors: await selection.globalConnectors() } });
  });
  router.patch('/settings', async (req, res) => {
    const patch = parseInput(patchSettingsSchema, req.body ?? {});
    if (patch.connectors !== undefined) await selection.setGlobalConnectors(patch.connectors);
    res.json({ settings: { connectors: await selection.globalConnectors() } });
  });
  router.get('/projects', async (_req, res) => {
    res.json({ projects: await selection.listProjects() });
  });
  router.post('/projects', async (req, res) => {
    res.status(201).json({ project: await selection.createProject(parseInput(createProjectSchema, req.body ?? {})) });
  });
  router.patch('/projects/:id', async (req, res) => {
    res.json({ project: await selection.updateProject(req.params.id, parseInput(patchProjectSchema, req.body ?? {})) });
  });
  return router;
}
