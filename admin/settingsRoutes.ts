import { Router } from 'express';
import { z } from 'zod';
import { createProjectSchema, patchProjectSchema, patchSettingsSchema, projectIdSchema } from '../catalog/index.js';
import { parseInput, type ConnectorSelection } from '../gateway/index.js';

export interface SettingsRoutesDeps {
  selection: ConnectorSelection;
}

/** The `:id` of `/projects/:id`, checked like the id a Project is created with. */
const projectPathSchema = z.object({ id: projectIdSchema }).strict();

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
    // An id no Project can have is named as such: "no project; create it" would send the admin to a POST that refuses it.
    const { id } = parseInput(projectPathSchema, { id: req.params.id });
    res.json({ project: await selection.updateProject(id, parseInput(patchProjectSchema, req.body ?? {})) });
  });
  return router;
}
