import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema, ElicitRequestSchema, ErrorCode, ListRootsRequestSchema, LoggingMessageNotificationSchema, McpError,
  PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema,
  type LoggingLevel, type LoggingMessageNotification,
  type ClientCapabilities, type CreateMessageRequest, type CreateMessageResult, type ElicitRequest, type ElicitResult, type ListRootsResult,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * What scigate answers when an upstream server asks its client something (sampling, elicitation,
 * roots). A missing handler refuses the request with the given reason, so the server's tool fails
 * with words the agent can act on instead of "method not found".
 */
export interface ClientRequests {
  capabilities: ClientCapabilities;
  sampling?: (params: CreateMessageRequest['params'], signal: AbortSignal) => Promise<CreateMessageResult>;
  elicitation?: (params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
  roots?: (signal: AbortSignal) => Promise<ListRootsResult>;
  /** Why a request without a handler is refused (names what the user can change). */
  refusal: (kind: 'sampling' | 'elicitation' | 'roots') => string;
  /** The server's log messages (`notifications/message`), when someone wants them. */
  onLog?: (message: LoggingMessageNotification['params']) => void;
  /** The level to ask the server for right after each connect (`logging/setLevel`), if any. */
  logLevel?: () => LoggingLevel | undefined;
}

/** What a server tells its clients about its resources and prompts (relayed to the Sessions that use them). */
export type ServerNotice =
  | { kind: 'resource_updated'; uri: string }
  | { kind: 'resources_list_changed' }
  | { kind: 'prompts_list_changed' };

/** Relays a server's resource and prompt notifications to `notice` (installed before it connects). */
export function installServerNotices(client: Client, notice: (n: ServerNotice) => void): void {
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => notice({ kind: 'resource_updated', uri: n.params.uri }));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => notice({ kind: 'resources_list_changed' }));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => notice({ kind: 'prompts_list_changed' }));
}

/**
 * Installs the handlers of `requests` on an upstream SDK client (before it connects); `asked` hears
 * each kind of request the server makes (a server that asks for roots gets per-Session connections).
 */
export function installClientRequests(client: Client, requests: ClientRequests, asked?: (kind: 'sampling' | 'elicitation' | 'roots') => void): void {
  const refuse = (kind: 'sampling' | 'elicitation' | 'roots'): never => {
    throw new McpError(ErrorCode.InvalidRequest, requests.refusal(kind));
  };
  if (requests.capabilities.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
      requests.sampling ? requests.sampling(request.params, extra.signal) : refuse('sampling'),
    );
  }
  if (requests.capabilities.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
      requests.elicitation ? requests.elicitation(request.params, extra.signal) : refuse('elicitation'),
    );
  }
  if (requests.onLog) {
    const onLog = requests.onLog;
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => onLog(notification.params));
  }
  if (requests.capabilities.roots) {
    client.setRequestHandler(ListRootsRequestSchema, (_request, extra) => {
      asked?.('roots');
      return requests.roots ? requests.roots(extra.signal) : refuse('roots');
    });
  }
}
