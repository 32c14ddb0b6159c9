import type { Readable } from 'node:stream';
import { Router } from 'express';
import { GatewayError, aboutArgument, requireSession, workspaceResourceUri, type EventHub, type SessionStore, type SessionWorkspace } from '../gateway/index.js';

export interface UploadRoutesDeps {
  sessions: SessionStore;
  workspace: SessionWorkspace;
  events: EventHub;
  /** Largest upload, in bytes (default 100 MB). */
  maxUploadBytes?: number;
}

/**
 * `POST /api/sessions/:id/files?path=<relative path>`: the raw request body (any content type but
 * JSON or multipart) streamed into the Session workspace under the same path rules as downloads;
 * refused past the size limit (413) and never over an existing file (409). Mounted before the JSON
 * body reader.
 */
export function uploadRoutes(deps: UploadRoutesDeps): Router {
  const maxBytes = deps.maxUploadBytes ?? 100 * 1024 * 1024;
  const router = Router();
  router.post('/sessions/:id/files', async (req, res) => {
    const session = await requireSession(deps.sessions, req.params.id);
    const path = typeof req.query.path === 'string' ? req.query.path : '';
    if (!path) throw new GatewayError('invalid_input', 'Name the file with ?path=<relative path>, e.g. ?path=uploads/paper.pdf.', { details: { field: 'path' } });
    if (req.is(['multipart/form-data', 'application/json'])) {
      throw new GatewayError('unsupported_media_type', 'Send the file itself as the request body (e.g. content-type: application/pdf or application/octet-stream), not multipart or JSON.');
    }
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      throw new GatewayError('unsupported_media_type', `Send the file's bytes as they are, without Content-Encoding (got ${JSON.stringify(encoding.slice(0, 40))}); a compressed file is stored as sent, e.g. with content-type: application/gzip.`);
    }
    if (Number(req.headers['content-length'] ?? 0) > maxBytes) {
      throw new GatewayError('request_too_large', `The file is larger than ${maxBytes} bytes; send a smaller one.`);
    }
    const checked = await aboutArgument('path', () => deps.workspace.checkPath(path));
    const file = await deps.workspace.writeFile(session.id, checked, req as unknown as Readable, { maxBytes });
    deps.events.publish('workspace.file', session.id, { path: file.path, sizeBytes: file.sizeBytes });
    res.status(201).json({ file: { ...file, resourceUri: workspaceResourceUri(session.id, file.path) } });
  });
  return router;
}
