import { describe, expect, it } from 'vitest';
import { createCustomServerSchema, importServersSchema, importToCreateRequests, patchCustomServerSchema } from '../../../catalog/index.js';
import { SecretScrubber, parseInput } from '../../../gateway/core/index.js';
import { invalidInputMessage } from '../../fixtures/invalidInputMessage.js';
import { decideEffectiveConnectors } from '../../../gateway/selection/index.js';
import { applyServerPatch, buildServerConfig, decideConnection, restoreRedacted } from '../../../gateway/custom/index.js';

const NOW = '2026-12-01T00:00:00.000Z';

const messageOf = invalidInputMessage;

describe('create requests', () => {
  const stdio = { name: 'Everything', transport: 'stdio', command: 'npx', args: ['-y', 'x'] };

  it('default to disabled with a 60 s timeout', () => {
    expect(parseInput(createCustomServerSchema, stdio)).toMatchObject({ enabled: false, timeoutSeconds: 60, env: [] });
  });

  it.each([
    [0, 'timeoutSeconds: must be at least 1 second'],
    [601, 'timeoutSeconds: must be at most 600 seconds'],
    [1.5, 'timeoutSeconds: must be a whole number'],
    ['60', 'timeoutSeconds: must be a whole number'],
  ])('timeout %j is refused naming the field', (timeoutSeconds, message) => {
    expect(messageOf(() => parseInput(createCustomServerSchema, { ...stdio, timeoutSeconds }))).toContain(message);
  });

  it('accepts the bounds 1 and 600', () => {
    expect(parseInput(createCustomServerSchema, { ...stdio, timeoutSeconds: 1 }).timeoutSeconds).toBe(1);
    expect(parseInput(createCustomServerSchema, { ...stdio, timeoutSeconds: 600 }).timeoutSeconds).toBe(600);
  });

  it('names the bad field: transport, unknown fields, url, env keys, auth mode', () => {
    expect(messageOf(() => parseInput(createCustomServerSchema, { name: 'x', command: 'y' }))).toMatch(/^transport: /);
    expect(messageOf(() => parseInput(createCustomServerSchema, { ...stdio, url: 'http://x' }))).toBe('url: is not a known field');
    expect(messageOf(() => parseInput(createCustomServerSchema, { name: 'x', transport: 'http', url: 'ftp://x' }))).toMatch(/^url: /);
    expect(messageOf(() => parseInput(createCustomServerSchema, { ...stdio, env: [{ key: '1BAD', value: 'v' }] }))).toMatch(/^env\.0\.key: /);
    expect(messageOf(() => parseInput(createCustomServerSchema, { name: 'x', transport: 'sse', url: 'http://127.0.0.1/sse', auth: { mode: 'basic' } }))).toMatch(
      /^auth\.mode: /,
    );
    expect(messageOf(() => parseInput(createCustomServerSchema, { name: 'x', transport: 'sse', url: 'http://127.0.0.1/sse', auth: { mode: 'oauth', token: 't' } }))).toBe(
      'auth.token: is not a known field',
    );
    expect(messageOf(() => parseInput(createCustomServerSchema, { ...stdio, name: '  ' }))).toMatch(/^name: /);
  });

  it('refuses at save what could never start or be sent: a NUL in the command, arguments, directory or environment, a header outside one line of Latin-1', () => {
    const remote = { name: 'r', transport: 'http', url: 'http://127.0.0.1/mcp' };
    expect(messageOf(() => parseInput(createCustomServerSchema, { ...stdio, env: [{ key: 'API_KEY', value: 'sk-live-4242\u0000' }] }))).toBe(
      'env.0.value: an environment value must not hold a NUL character (a process environment cannot carry one)',
    );
    expect(messageOf(() => parseInput(createCustomServerSchema, { ...stdio, args: ['-y', 'x\u0000'] }))).toBe('args.1: an argument must not hold a NUL character');
    expect(messageOf(() => parseInput(createCustomServerSchema, { ...stdio, command: 'np\u0000x' }))).toBe('command: must not hold a NUL character');
    expect(messageOf(() => parseInput(createCustomServerSchema, { ...stdio, cwd: '/srv\u0000' }))).toBe('cwd: must not hold a NUL character');
    for (const value of ['Bearer \u0100bc', 'a\r\nX-Injected: 1', 'a\u0000b']) {
      expect(messageOf(() => parseInput(createCustomServerSchema, { ...remote, headers: [{ key: 'Authorization', value }] }))).toBe(
        'headers.0.value: a header value must be one line of printable ASCII or Latin-1 characters',
      );
    }
    expect(messageOf(() => parseInput(patchCustomServerSchema, { env: [{ key: 'K', value: 'v\u0000' }] }))).toMatch(/^env\.0\.value: an environment value must not hold a NUL/);
    expect(messageOf(() => parseInput(importServersSchema, { mcpServers: { a: { command: 'x', env: { K: 'v\u0000' } } } }))).toMatch(/^mcpServers\.a\.env\.K: an environment value must not hold a NUL/);
    // Tabs and Latin-1 are sendable.
    expect(parseInput(createCustomServerSchema, { ...remote, headers: [{ key: 'X-Name', value: 'caf\u00e9\tok' }] })).toMatchObject({ headers: [{ value: 'caf\u00e9\tok' }] });
  });
});

describe('import documents', () => {
  it('reads Claude Desktop, Cursor, VS Code and MCP Inspector shapes; every entry disabled', () => {
    const document = parseInput(importServersSchema, {
      mcpServers: {
        'claude-stdio': { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { TOKEN: 's' }, disabled: false },
        'cursor-url': { url: 'https://mcp.example.org/mcp', headers: { Authorization: 'Bearer x' } },
        'vscode-sse': { type: 'sse', url: 'http://127.0.0.1:3001/sse' },
        'vscode-stdio': { type: 'stdio', command: 'node', args: ['server.js'], cwd: '/srv' },
        // The Inspector's "Servers File" button, verbatim but for the URL.
        'default-server': { type: 'streamable-http', url: 'http://localhost:3000/mcp', note: 'For Streamable HTTP connections, add this URL directly in your MCP Client' },
      },
    });
    const requests = importToCreateRequests(document);
    expect(requests.map((r) => [r.name, r.transport, r.enabled])).toEqual([
      ['claude-stdio', 'stdio', false],
      ['cursor-url', 'http', false],
      ['vscode-sse', 'sse', false],
      ['vscode-stdio', 'stdio', false],
      ['default-server', 'http', false],
    ]);
    expect(requests[0]).toMatchObject({ env: [{ key: 'TOKEN', value: 's' }] });
    expect(requests[1]).toMatchObject({ headers: [{ key: 'Authorization', value: 'Bearer x' }], auth: { mode: 'none' } });
  });

  it('refuses mixed or incomplete entries, naming the server and field', () => {
    expect(messageOf(() => parseInput(importServersSchema, { mcpServers: { a: { command: 'x', url: 'http://y' } } }))).toBe(
      'mcpServers.a: give either a command (stdio) or a url (http/sse), not both',
    );
    expect(messageOf(() => parseInput(importServersSchema, { mcpServers: { a: { type: 'stdio', command: 'x', url: 'http://y' } } }))).toBe(
      'mcpServers.a.url: is not a setting of a stdio server',
    );
    expect(messageOf(() => parseInput(importServersSchema, { mcpServers: { b: { type: 'http' } } }))).toBe('mcpServers.b.url: a http server needs a url');
    expect(messageOf(() => parseInput(importServersSchema, { mcpServers: { c: { command: 'x', autoApprove: [] } } }))).toMatch(
      /^mcpServers\.c\.autoApprove: is an editor's list of tools to run without asking, not read here: remove it/,
    );
    expect(messageOf(() => parseInput(importServersSchema, { mcpServers: { d: { serverUrl: 'https://x.example/mcp' } } }))).toMatch(/serverUrl: .*rename it to url/);
    expect(messageOf(() => parseInput(importServersSchema, { mcpServers: { e: { command: 'x', colour: 'red' } } }))).toBe('mcpServers.e.colour: is not a known field');
    expect(messageOf(() => parseInput(importServersSchema, { mcpServers: [] }))).toMatch(/^mcpServers: must be an object of servers by name/);
  });

  it("reads VS Code's mcp.json, whose servers are under \"servers\"; its prompted inputs are refused with what to do", () => {
    const vscode = { servers: { notes: { type: 'stdio', command: 'node', args: ['notes.js'] }, remote: { type: 'http', url: 'https://mcp.example.org/mcp' } } };
    expect(importToCreateRequests(parseInput(importServersSchema, vscode)).map((r) => [r.name, r.transport])).toEqual([['notes', 'stdio'], ['remote', 'http']]);
    const withInputs = { ...vscode, inputs: [{ type: 'promptString', id: 'api-key', password: true }] };
    expect(messageOf(() => parseInput(importServersSchema, withInputs))).toMatch(/^inputs: VS Code's prompted inputs are not read here: write each value into the env or headers/);
  });
});

describe('updates', () => {
  const current = buildServerConfig(
    parseInput(createCustomServerSchema, { name: 'S', transport: 'stdio', command: 'node', args: ['a.js'], env: [{ key: 'K', value: 'secret' }] }),
    'custom-0123456789ab',
    NOW,
  );

  it('keep unchanged fields and secrets; switching transport needs the new transport settings', () => {
    const renamed = applyServerPatch(current, parseInput(patchCustomServerSchema, { name: 'T', timeoutSeconds: 5 }), NOW);
    expect(renamed).toMatchObject({ name: 'T', timeoutSeconds: 5, command: 'node', env: { K: 'secret' } });
    expect(messageOf(() => applyServerPatch(current, parseInput(patchCustomServerSchema, { transport: 'http' }), NOW))).toMatch(/^url: /);
    const remote = applyServerPatch(current, parseInput(patchCustomServerSchema, { transport: 'sse', url: 'http://127.0.0.1:1/sse' }), NOW);
    expect(remote).toMatchObject({ transport: 'sse', headers: {}, auth: { mode: 'none' } });
    expect(remote).not.toHaveProperty('env');
    expect(messageOf(() => applyServerPatch(current, parseInput(patchCustomServerSchema, { headers: [] }), NOW))).toMatch(/^headers: /);
  });
});

describe('deciders', () => {
  const test = (ok: boolean, testedAt: string) => ({ ok, checks: [{ name: 'connect' as const, ok, message: 'm' }], tools: [], durationMs: 1, testedAt });

  it('connection state: disabled, untested, ready, error — the newer check wins', () => {
    expect(decideConnection(false, { state: 'ready', discoveredAt: NOW }, undefined).state).toBe('disabled');
    expect(decideConnection(true, { state: 'pending' }, undefined).state).toBe('untested');
    expect(decideConnection(true, { state: 'pending' }, test(false, NOW)).state).toBe('error');
    expect(decideConnection(true, { state: 'ready', discoveredAt: NOW }, undefined).state).toBe('ready');
    expect(decideConnection(true, { state: 'ready', discoveredAt: NOW }, test(false, '2026-12-01T00:00:01.000Z')).state).toBe('error');
    expect(decideConnection(true, { state: 'error', error: 'boom' }, test(true, NOW))).toEqual({ state: 'error', message: 'boom' });
  });

  it('effective connectors: Session, then Project, then global; null inherits', () => {
    expect(decideEffectiveConnectors(['a'], ['b'], ['c'])).toEqual(['a']);
    expect(decideEffectiveConnectors(null, ['b'], ['c'])).toEqual(['b']);
    expect(decideEffectiveConnectors(null, undefined, ['c'])).toEqual(['c']);
    expect(decideEffectiveConnectors(null, null, null)).toBeNull();
    expect(decideEffectiveConnectors([], ['b'], null)).toEqual([]);
  });
});

describe('a patch with values the API showed redacted', () => {
  const secrets = new SecretScrubber();
  const saved = buildServerConfig(
    parseInput(createCustomServerSchema, { name: 'T', transport: 'stdio', command: 'node', args: ['server.js', '--token', 'tok_ABCDEF123'], env: [{ key: 'API_TOKEN', value: 'tok_ABCDEF123' }] }),
    'custom-0123456789ab',
    NOW,
  );
  secrets.register('custom-0123456789ab', () => ['tok_ABCDEF123']);
  const patched = (patch: object) => applyServerPatch(saved, restoreRedacted(saved, parseInput(patchCustomServerSchema, patch), secrets), NOW);

  it('keeps the saved argument behind each [redacted] the view showed, at its place or moved', () => {
    expect(patched({ args: ['server.js', '--token', '[redacted]'] })).toMatchObject({ args: ['server.js', '--token', 'tok_ABCDEF123'] });
    expect(patched({ args: ['--verbose', 'server.js', '--token', '[redacted]'] })).toMatchObject({ args: ['--verbose', 'server.js', '--token', 'tok_ABCDEF123'] });
    expect(patched({ args: ['server.js', '--token', 'tok_NEW4567890'] })).toMatchObject({ args: ['server.js', '--token', 'tok_NEW4567890'] });
  });

  it('refuses a [redacted] that is no saved value shown, naming the field', () => {
    expect(messageOf(() => patched({ args: ['server.js', '--key', 'x[redacted]'] }))).toBe(
      'args.2: holds "[redacted]", which stands for a saved secret the API does not show; send the real value, or leave args out to keep the saved one.',
    );
    expect(messageOf(() => patched({ command: '[redacted]' }))).toMatch(/^command: holds "\[redacted\]"/);
  });
});
