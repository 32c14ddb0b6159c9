/** How a Session is named in choices and headings: client, project and a short id. */
export function sessionLabel(session) {
  return `${session.clientName ?? 'unknown client'} · ${session.projectId} · ${session.id.slice(0, 12)}`;
}
