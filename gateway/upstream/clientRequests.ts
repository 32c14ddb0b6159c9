import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema, ElicitRequestSchema, ErrorCode, ListRootsRequestSchema, LoggingMessageNotificationSchema, McpError,
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

/** Installs the handlers of `requests` on an upstream SDK client (before it connects). */
export function installClientRequests(client: Client, requests: ClientRequests): void {
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
    client.setRequestHandler(ListRootsRequestSchema, (_request, extra) => (requests.roots ? requests.roots(extra.signal) : refuse('roots')));
  }
}
