import { governedToolName } from '../../catalog/index.js';

/** A dangerous action, normalized so that a Grant names it the same way every time. */
export interface DangerousAction {
  action: 'tool.call' | 'artifact.download';
  resource: string;
}

/**
 * The one place that says which actions are dangerous and how they are named (seed §8, GATEWAY.md §7):
 *
 * | action              | resource                    | which calls                                             |
 * |---------------------|-----------------------------|---------------------------------------------------------|
 * | `tool.call`         | `mcp__<sourceId>__<toolId>` | every tool of a custom server (generic envelope)        |
 * | `artifact.download` | `<sourceId>`                | `artifact_download` of a candidate from that source     |
 *
 * Not dangerous: built-in read-only queries (scientific envelope) and `paper_extract_pdf`.
 * The resource always has the `mcp__` form, whatever `--tool-prefix` agents see, so a Grant means
 * the same under either prefix. A Grant (allow_matching) matches exactly this action and resource.
 */
export function dangerousToolCall(tool: { sourceId: string; toolId: string; envelope: 'scientific' | 'generic' }): DangerousAction | undefined {
  // Custom-server tools are the generic ones: they may have side effects the gateway cannot see.
  if (tool.envelope !== 'generic') return undefined;
  return { action: 'tool.call', resource: governedToolName(tool.sourceId, tool.toolId, 'mcp') };
}

/** `artifact_download` of a candidate from `sourceId` (the artifact feature asks the gate with this). */
export function artifactDownloadAction(sourceId: string): DangerousAction {
  return { action: 'artifact.download', resource: sourceId };
}
