import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ProviderError, boundProviderText } from './providerError.js';

/** One XML element with its namespace resolved, its attributes, and its children in document order. */
export interface XmlElement {
  ns: string;
  local: string;
  attrs: Record<string, string>;
  nodes: Array<XmlElement | string>;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
});

type RawNode = Record<string, unknown>;

/**
 * Parses provider XML namespace-aware: prefixes are resolved to URIs, so a feed that moves its
 * `xmlns` declarations (as arXiv's 2025 server did) parses the same. Malformed, truncated or
 * unsupported XML (an external entity, which is never resolved; nesting deeper than the parser's
 * limit) is a retryable provider error.
 */
export function parseXml(text: string, provider: string): XmlElement {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw badXml(provider, valid.err.msg);
  const root = parseRoots(text, provider)[0];
  if (!root) throw new ProviderError('upstream_error', `${provider} sent XML without a root element`, { retryable: true });
  return root;
}

/**
 * The validator passes documents the parser then refuses (a DOCTYPE with a SYSTEM entity, 200,000
 * nested tags); the parser's own error must not reach the caller as an unexpected source failure.
 */
function parseRoots(text: string, provider: string): XmlElement[] {
  try {
    return (parser.parse(text) as RawNode[]).map((n) => toElement(n, new Map())).filter(isElement);
  } catch (error) {
    throw badXml(provider, error instanceof Error ? error.message : String(error));
  }
}

function badXml(provider: string, reason: string): ProviderError {
  return new ProviderError('upstream_error', `${provider} sent malformed, truncated or unsupported XML (${boundProviderText(reason)})`, {
    retryable: true,
  });
}

function isElement(node: XmlElement | string | undefined): node is XmlElement {
  return typeof node === 'object';
}

function toElement(raw: RawNode, scope: Map<string, string>): XmlElement | string | undefined {
  if ('#text' in raw) return String(raw['#text']);
  const tag = Object.keys(raw).find((k) => k !== ':@');
  if (!tag || tag.startsWith('?')) return undefined;
  const attrs = (raw[':@'] ?? {}) as Record<string, string>;
  const inner = new Map(scope);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === 'xmlns') inner.set('', value);
    else if (name.startsWith('xmlns:')) inner.set(name.slice(6), value);
  }
  const [prefix, local] = tag.includes(':') ? tag.split(':', 2) as [string, string] : ['', tag];
  const children = (raw[tag] ?? []) as RawNode[];
  return {
    ns: inner.get(prefix) ?? '',
    local,
    attrs,
    nodes: children.map((c) => toElement(c, inner)).filter((n): n is XmlElement | string => n !== undefined),
  };
}

/** Child elements with the given namespace and local name. */
export function childrenOf(el: XmlElement, ns: string, local: string): XmlElement[] {
  return el.nodes.filter((n): n is XmlElement => isElement(n) && n.ns === ns && n.local === local);
}

/** The first child element with the given namespace and local name. */
export function childOf(el: XmlElement, ns: string, local: string): XmlElement | undefined {
  return childrenOf(el, ns, local)[0];
}

/** All text inside an element, inline markup included, in document order. */
export function textOf(el: XmlElement | undefined): string {
  if (!el) return '';
  return el.nodes.map((n) => (typeof n === 'string' ? n : textOf(n))).join('');
}
