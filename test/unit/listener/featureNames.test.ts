import { describe, expect, it } from 'vitest';
import { namespacedNaming, upstreamNaming } from '../../../gateway/listener/featureNames.js';
import { workspaceResourceUri } from '../../../gateway/core/index.js';
import type { SourceEntry } from '../../../gateway/registry/index.js';

const labelled = { manifest: { id: 'custom-0123456789ab' }, label: 'everything' } as unknown as SourceEntry;
const unlabelled = { manifest: { id: 'custom-ba9876543210' } } as unknown as SourceEntry;
const naming = namespacedNaming('mcp');

const URIS = [
  'demo://resource/static/document/features.md',
  'file:///home/ana/notes/a b#c?d=1&e=%20',
  'https://example.org/x/y?q=ü',
  'test://static-text',
  'urn:isbn:0451450523',
  'scigate://sessions/ses_1/files/a.pdf',
];

describe('namespaced resource URIs on /mcp', () => {
  it.each(URIS)('%s round-trips through scigate://<source>/…', (uri) => {
    for (const entry of [labelled, unlabelled]) {
      const named = naming.resourceUri(entry, uri);
      expect(named).toMatch(/^scigate:\/\/[a-z0-9-]+\/[^/]*$/);
      expect(naming.parseUri(named)).toEqual({ sourceName: entry.label ?? entry.manifest.id, uri });
    }
  });

  it('a URI template keeps its expressions, so a client can still expand it', () => {
    const template = naming.resourceUri(labelled, 'demo://resource/dynamic/text/{resourceId}{?lang}');
    expect(template).toBe('scigate://everything/demo%3A%2F%2Fresource%2Fdynamic%2Ftext%2F{resourceId}{?lang}');
    expect(naming.parseUri(template.replace('{resourceId}', '7').replace('{?lang}', ''))).toEqual({
      sourceName: 'everything', uri: 'demo://resource/dynamic/text/7',
    });
  });

  it("the Session's own file URIs and foreign URIs are not taken for an upstream's", () => {
    expect(naming.parseUri(workspaceResourceUri('ses_1', 'downloads/a.pdf'))).toBeUndefined();
    expect(naming.parseUri('demo://resource/x')).toBeUndefined();
    expect(naming.parseUri('scigate://everything')).toBeUndefined();
    expect(naming.parseUri('scigate://everything/%E0%A4%A')).toBeUndefined();
  });
});

describe('prompt names on /mcp are built like tool names', () => {
  it('mcp__<source>__<readable name>, falling back to a hashed id when two names read alike', () => {
    const names = naming.promptNames(labelled, ['simple-prompt', 'Summarize Paper', 'a b', 'a-b']);
    expect(names.get('simple-prompt')).toBe('mcp__everything__simple-prompt');
    expect(names.get('Summarize Paper')).toBe('mcp__everything__summarize-paper');
    expect(names.get('a b')).toMatch(/^mcp__everything__a_b_[0-9a-f]{6}$/);
    expect(names.get('a-b')).toMatch(/^mcp__everything__a_b_[0-9a-f]{6}$/);
    expect(names.get('a b')).not.toBe(names.get('a-b'));
    expect(naming.promptSource('mcp__everything__simple-prompt')).toBe('everything');
    expect(naming.promptSource('simple-prompt')).toBeUndefined();
  });

  it('without a readable label the Source ID and the hashed id stand in, as for its tools', () => {
    expect(naming.promptNames(unlabelled, ['p']).get('p')).toMatch(/^mcp__custom-ba9876543210__p_[0-9a-f]{6}$/);
  });
});

describe('/mcp/sources/<id> keeps upstream names', () => {
  it('URIs and prompt names pass unchanged', () => {
    expect(upstreamNaming.resourceUri(labelled, 'test://static-text')).toBe('test://static-text');
    expect(upstreamNaming.parseUri('test://static-text')).toBeUndefined();
    expect(upstreamNaming.promptNames(labelled, ['test_simple_prompt']).get('test_simple_prompt')).toBe('test_simple_prompt');
  });
});
