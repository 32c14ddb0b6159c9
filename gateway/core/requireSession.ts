import { GatewayError } from './gatewayError.js';
import type { SessionStore } from './ports.js';
import type { SessionRecord } from './records.js';

/**
 * The Session with this id, or `not_found` naming the id (cut to 80 characters) and where to list
 * the known ones: one wording for the admin API, the permission gate and connector selection.
 */
export async function requireSession(sessions: Pick<SessionStore, 'get'>, id: string): Promise<SessionRecord> {
  const session = await sessions.get(id);
  if (!session) throw new GatewayError('not_found', `No session ${id.slice(0, 80)}; list them with GET /api/sessions.`);
  return session;
}
