import type { PromptMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * A prompt's messages with the URIs of embedded resources and resource links renamed by `rename`,
 * so an agent can read them back through the same endpoint.
 */
export function rewritePromptUris(messages: PromptMessage[], rename: (uri: string) => string): PromptMessage[] {
  return messages.map((message) => {
    const content = message.content;
    if (content.type === 'resource') return { ...message, content: { ...content, resource: { ...content.resource, uri: rename(content.resource.uri) } } };
    if (content.type === 'resource_link') return { ...message, content: { ...content, uri: rename(content.uri) } };
    return message;
  });
}
