import { parseWorkspaceResourceUri } from '../core/index.js';
import { customItemNames, type SourceEntry } from '../registry/index.js';
import type { ToolPrefix } from '../../catalog/index.js';

const SCHEME = 'scigate://';

/**
 * How an endpoint names upstream resources and prompts. On `/mcp` they are namespaced like tools
 * (reversibly): `scigate://<source>/<encoded original URI>` and `mcp__<source>__<prompt>`, where
 * `<source>` is the server's readable label (else its Source ID). On `/mcp/sources/<id>` they keep
 * their upstream names.
 */
export interface FeatureNaming {
  resourceUri(entry: SourceEntry, uri: string): string;
  /** The source name and original URI of a namespaced URI; undefined for any other URI. */
  parseUri(uri: string): { sourceName: string; uri: string } | undefined;
  /** Agent-facing prompt names by upstream name. */
  promptNames(entry: SourceEntry, upstreamNames: readonly string[]): Map<string, string>;
  /** The source name a namespaced prompt name begins with; undefined for any other name. */
  promptSource(name: string): string | undefined;
}

/** The name `<source>` stands for in namespaced URIs and prompt names. */
export function sourceNameOf(entry: SourceEntry): string {
  return entry.label ?? entry.manifest.id;
}

export function namespacedNaming(prefix: ToolPrefix): FeatureNaming {
  const promptPrefix = prefix === 'mcp' ? /^mcp__(.+?)__./ : /^(.+?)__./;
  return {
    resourceUri: (entry, uri) => `${SCHEME}${sourceNameOf(entry)}/${encodeLiterals(uri)}`,
    parseUri: (uri) => {
      if (!uri.startsWith(SCHEME) || parseWorkspaceResourceUri(uri)) return undefined;
      const rest = uri.slice(SCHEME.length);
      const slash = rest.indexOf('/');
      if (slash <= 0) return undefined;
      try {
        return { sourceName: rest.slice(0, slash), uri: decodeURIComponent(rest.slice(slash + 1)) };
      } catch {
        return undefined;
      }
    },
    promptNames: (entry, names) => customItemNames({ sourceId: entry.manifest.id, prefix, ...(entry.label ? { label: entry.label } : {}) }, names),
    promptSource: (name) => promptPrefix.exec(name)?.[1],
  };
}

export const upstreamNaming: FeatureNaming = {
  resourceUri: (_entry, uri) => uri,
  parseUri: () => undefined,
  promptNames: (_entry, names) => new Map(names.map((n) => [n, n])),
  promptSource: () => undefined,
};

/**
 * Percent-encodes a URI (or URI template) as one path segment, leaving template expressions
 * (`{id}`, `{+path}`) intact so a client still expands them; decodeURIComponent reverses it.
 */
function encodeLiterals(uri: string): string {
  return uri
    .split(/(\{[^{}]*\})/)
    .map((part) => (/^\{[^{}]*\}$/.test(part) ? part : encodeURIComponent(part)))
    .join('');
}
