/** Workspace files as MCP resources: `scigate://sessions/<sessionId>/files/<path>`. */
const PREFIX = 'scigate://sessions/';

/** The resource URI of a Session's workspace file (each segment percent-encoded). */
export function workspaceResourceUri(sessionId: string, path: string): string {
  return `${PREFIX}${encodeURIComponent(sessionId)}/files/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The Session and path a workspace resource URI names, or undefined when it is not one. */
export function parseWorkspaceResourceUri(uri: string): { sessionId: string; path: string } | undefined {
  if (!uri.startsWith(PREFIX)) return undefined;
  const match = /^([^/]+)\/files\/(.+)$/.exec(uri.slice(PREFIX.length));
  if (!match) return undefined;
  try {
    return { sessionId: decodeURIComponent(match[1]!), path: match[2]!.split('/').map(decodeURIComponent).join('/') };
  } catch {
    return undefined;
  }
}
