import { describe, expect, it } from 'vitest';
import { createCustomServerSchema, decideCustomUrl, importServersSchema, patchCustomServerSchema } from '../../../catalog/index.js';
import { parseInput } from '../../../gateway/core/index.js';
import { invalidInputMessage } from '../../fixtures/invalidInputMessage.js';
import { assertServerSet, buildServerConfig } from '../../../gateway/custom/customServerEdits.js';

const NOW = '2026-12-01T00:00:00.000Z';

const messageOf = invalidInputMessage;

describe('import of {"mcpServers": …}', () => {
  it('refuses a __proto__ entry, naming it, instead of dropping it', () => {
    const document = JSON.parse('{"mcpServers": {"ok": {"command": "node"}, "__proto__": {"command": "node"}}}');
    expect(messageOf(() => parseInput(importServersSchema, document))).toBe('mcpServers.__proto__: "__proto__" is not allowed as a server name');
  });

  it.each([
    ['lab', ' lab'],
    ['Alpha Lab', 'alpha  lab'],
    ['Alpha Lab', 'ALPHALAB'],
    ['ＡＬＰＨＡ', 'alpha'],
  ])('refuses "%s" and "%s" in one document as one name, instead of keeping only one', (first, second) => {
    const document = { mcpServers: { [first]: { command: 'node' }, [second]: { command: 'node' } } };
    // Error messages collapse runs of spaces, so the names are matched loosely here.
    const loose = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s*');
    expect(messageOf(() => parseInput(importServersSchema, document))).toMatch(
      new RegExp(`^mcpServers\\.${loose(second)}: the name "${loose(second)}" collides with "${loose(first)}" \\(names are compared ignoring case and spaces\\)$`),
    );
  });

  it('refuses a name with a bidi override, naming the entry', () => {
    const document = { mcpServers: { 'lab\u202Egpj.exe': { command: 'node' } } };
    // The name is shown with its override escaped, so the message itself reads as it is.
    expect(messageOf(() => parseInput(importServersSchema, document))).toMatch(/^mcpServers\.lab\\u202egpj\.exe: a server name must not contain invisible/);
  });
});

describe('env and header names', () => {
  it('refuses an env variable or header named __proto__ in an import instead of dropping it', () => {
    const env = JSON.parse('{"mcpServers": {"lab": {"command": "node", "env": {"__proto__": "sk-1", "KEEP": "x"}}}}');
    expect(messageOf(() => parseInput(importServersSchema, env))).toBe('mcpServers.lab.env.__proto__: an environment variable cannot be named "__proto__" here; rename it');
    const headers = JSON.parse('{"mcpServers": {"lab": {"url": "https://mcp.example.org/mcp", "headers": {"__proto__": "Bearer t"}}}}');
    expect(messageOf(() => parseInput(importServersSchema, headers))).toBe('mcpServers.lab.headers.__proto__: a header cannot be named "__proto__" here; rename it');
  });

  it('refuses one in a create or an update instead of saving the server without it', () => {
    const env = [{ key: '__proto__', value: 'sk-1' }, { key: 'KEEP', value: 'x' }];
    expect(messageOf(() => parseInput(createCustomServerSchema, { name: 'x', transport: 'stdio', command: 'node', env }))).toBe(
      'env.0.key: an environment variable cannot be named "__proto__" here; rename it',
    );
    expect(messageOf(() => parseInput(patchCustomServerSchema, { headers: [{ key: '__proto__', value: 'v' }] }))).toBe(
      'headers.0.key: a header cannot be named "__proto__" here; rename it',
    );
  });

  it('keeps the names constructor and prototype, which an object holds like any other', () => {
    const request = parseInput(createCustomServerSchema, { name: 'x', transport: 'stdio', command: 'node', env: [{ key: 'constructor', value: 'a' }, { key: 'prototype', value: 'b' }] });
    expect(buildServerConfig(request, 'custom-000000000003', NOW)).toMatchObject({ env: { constructor: 'a', prototype: 'b' } });
  });
});

describe('server names', () => {
  it.each(['\u200Bhidden', 'zero\u200Dwidth', 'rtl\u202Eoverride', 'isolate\u2066x\u2069', 'b\uFEFFom'])('refuses invisible or bidi characters in %j', (name) => {
    const message = messageOf(() => parseInput(createCustomServerSchema, { name, transport: 'stdio', command: 'node' }));
    expect(message).toBe('name: must not contain invisible or text-direction characters (zero-width, bidi controls)');
    expect(messageOf(() => parseInput(patchCustomServerSchema, { name }))).toMatch(/^name: must not contain invisible/);
  });

  it('compares saved names ignoring case and spaces', () => {
    const a = buildServerConfig(parseInput(createCustomServerSchema, { name: 'Alpha Lab', transport: 'stdio', command: 'node' }), 'custom-000000000001', NOW);
    const b = buildServerConfig(parseInput(createCustomServerSchema, { name: 'alpha  LAB', transport: 'stdio', command: 'node' }), 'custom-000000000002', NOW);
    expect(messageOf(() => assertServerSet([a, b], () => 'name'))).toMatch(/^name: the name "alpha\s+LAB" is already used by "Alpha Lab"/);
  });
});

describe('server URLs', () => {
  it('refuses a URL with a user name or password, pointing at headers instead', () => {
    for (const url of ['https://user:pass@mcp.example.org/mcp', 'https://token@mcp.example.org/mcp']) {
      const message = messageOf(() => parseInput(createCustomServerSchema, { name: 'x', transport: 'http', url }));
      expect(message).toMatch(/^url: must not contain a user name or password .* put credentials in a header/);
    }
  });

  const closed = { allowPrivate: false };
  const open = { allowPrivate: true };

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://2852039166/',
    'http://[::ffff:169.254.169.254]/',
    'http://[fe80::1]/mcp',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://0.0.0.0:8080/mcp',
  ])('refuses the link-local, metadata or unspecified address %s, even with private ranges allowed', (url) => {
    expect(decideCustomUrl(url, closed)).toMatch(/metadata|link-local/);
    expect(decideCustomUrl(url, open)).toMatch(/metadata|link-local/);
  });

  it.each(['http://10.1.2.3/mcp', 'http://192.168.1.20:8000/mcp', 'http://172.20.0.5/mcp', 'http://[fd12::1]/mcp', 'http://100.64.0.1/mcp'])(
    'refuses the private address %s unless --allow-private-urls is set',
    (url) => {
      expect(decideCustomUrl(url, closed)).toMatch(/--allow-private-urls \(SCIGATE_ALLOW_PRIVATE_URLS=true\)/);
      expect(decideCustomUrl(url, open)).toBeUndefined();
    },
  );

  it('allows loopback and public hosts by default', () => {
    for (const url of ['http://127.0.0.1:9000/mcp', 'http://localhost:9000/mcp', 'http://[::1]:9000/mcp', 'https://mcp.example.org/mcp', 'https://93.184.216.34/mcp']) {
      expect(decideCustomUrl(url, closed)).toBeUndefined();
    }
  });

  it("refuses the gateway's own listener, on its port only", () => {
    const policy = { allowPrivate: true, ownListener: () => ({ hosts: ['127.0.0.1'], port: 7410 }) };
    for (const url of ['http://127.0.0.1:7410/mcp', 'http://localhost:7410/mcp', 'http://127.0.0.2:7410/mcp', 'http://[::1]:7410/mcp']) {
      expect(decideCustomUrl(url, policy)).toMatch(/this gateway itself/);
    }
    expect(decideCustomUrl('http://127.0.0.1:7411/mcp', policy)).toBeUndefined();
    const everywhere = { allowPrivate: true, ownListener: () => ({ hosts: ['0.0.0.0', '10.0.0.7'], port: 80 }) };
    expect(decideCustomUrl('http://10.0.0.7/mcp', everywhere)).toMatch(/this gateway itself/);
    expect(decideCustomUrl('http://localhost/mcp', everywhere)).toMatch(/this gateway itself/);
  });
});
