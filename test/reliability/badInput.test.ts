import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

/**
 * The bad-input corpus (issue 11): every admin route and /mcp × malformed JSON, wrong types,
 * huge bodies, bad encodings and traversal ids. Every answer must be a 4xx with the JSON error
 * shape — never a 500, never HTML, never a stack. The count of inputs is printed for
 * docs/reliability.md.
 */

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

interface BadInput {
  label: string;
  headers: Record<string, string>;
  body?: Buffer;
}

let gateway: TestGateway;
let port: number;
let mcpSessionId: string;
beforeAll(async () => {
  gateway = await startTestGateway();
  port = Number(new URL(gateway.url).port);
  mcpSessionId = await openMcpSession();
});
afterAll(async () => {
  await gateway.dispose();
});

/** A raw HTTP request: the path and the bytes go out exactly as given (no URL normalization). */
function send(method: string, path: string, input: Omit<BadInput, 'label'>, auth = true): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...input.headers, ...(auth ? { authorization: `Bearer ${gateway.token}` } : {}) };
    if (input.body) headers['content-length'] = String(input.body.length);
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }));
    });
    // The server may answer (413) and close before it has read a huge body: that is fine.
    req.on('error', reject);
    req.end(input.body);
  });
}

async function openMcpSession(): Promise<string> {
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'corpus', version: '1' } } };
  const res = await fetch(gateway.mcpUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(init),
  });
  await res.text();
  const id = res.headers.get('mcp-session-id');
  if (!id) throw new Error(`no session id (${res.status})`);
  await send('POST', '/mcp', { headers: { ...mcpHeaders(), 'mcp-session-id': id }, body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })) });
  return id;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const json = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
const mcpHeaders = () => ({ ...JSON_TYPE, accept: 'application/json, text/event-stream' });

const MALFORMED = ['{', '{"a":', 'nul', '[1,2', '{"a":1}}', "{'a':1}", '{"a":1,}', '\u0000', 'NaN', '{"a":"\\x"}'];
const WRONG_TYPES: unknown[] = [[], 'text', 42, null, true, { unknownField: 1 }, { name: 5 }, { connectors: 'all' }, { decision: 7 }, { enabled: 'no' }, { tools: {} }, { mcpServers: [] }];

/** Bodies that no JSON route may accept, whatever it expects. */
function bodyInputs(limitBytes: number): BadInput[] {
  return [
    ...WRONG_TYPES.map((value) => ({ label: `wrong type ${JSON.stringify(value)}`, headers: JSON_TYPE, body: json(value) })),
    { label: 'deep nesting', headers: JSON_TYPE, body: json('['.repeat(5000) + ']'.repeat(5000)) },
    { label: 'invalid utf-8', headers: JSON_TYPE, body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
    ...readingInputs(limitBytes),
  ];
}

/** Bodies that cannot even be read as JSON: refused by every route, including those that take no body. */
function readingInputs(limitBytes: number): BadInput[] {
  return [
    ...MALFORMED.map((text) => ({ label: `malformed ${JSON.stringify(text)}`, headers: JSON_TYPE, body: json(text) })),
    { label: 'huge body', headers: JSON_TYPE, body: json({ pad: 'x'.repeat(limitBytes + 1024) }) },
    { label: 'bad charset', headers: { 'content-type': 'application/json; charset=klingon' }, body: json({ enabled: false }) },
    { label: 'unknown content-encoding', headers: { ...JSON_TYPE, 'content-encoding': 'x-mystery' }, body: json({ enabled: false }) },
    { label: 'bad gzip', headers: { ...JSON_TYPE, 'content-encoding': 'gzip' }, body: Buffer.from('this is not gzip') },
    { label: 'no content-type', headers: {}, body: json({ enabled: false }) },
    { label: 'text/plain', headers: { 'content-type': 'text/plain' }, body: json({ enabled: false }) },
    { label: 'form body', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: json('enabled=false') },
  ];
}

const BAD_IDS = ['..%2F..%2Fetc%2Fpasswd', '%2E%2E', '%00', 'a%00b', '%', '%E0%A4%A', '%ZZ', '%C0%AE%C0%AE', 'x'.repeat(5000), '%E2%80%AEdi'];

const ID_ROUTES: Array<[string, string]> = [
  ['GET', '/api/sessions/:id'], ['GET', '/api/sessions/:id/invocations'], ['GET', '/api/sessions/:id/invocations/:id'],
  ['GET', '/api/sessions/:id/permission-requests'], ['GET', '/api/sessions/:id/grants'], ['GET', '/api/sessions/:id/authorizations'],
  ['DELETE', '/api/grants/:id'], ['GET', '/api/catalog/sources/:id'], ['GET', '/api/catalog/sources/:id/status'],
  ['GET', '/api/catalog/sources/:id/tools'], ['GET', '/api/mcp/servers/:id'], ['DELETE', '/api/mcp/servers/:id'],
  ['POST', '/api/mcp/servers/:id/test'],
];

const BODY_ROUTES: Array<[string, string, number]> = [
  ['PATCH', '/api/sessions/ses_missing', 64 * 1024], ['PATCH', '/api/settings', 1024 * 1024], ['POST', '/api/projects', 1024 * 1024],
  ['PATCH', '/api/projects/prj_missing', 1024 * 1024], ['POST', '/api/permission-requests/perm_missing/decision', 64 * 1024],
  ['POST', '/api/mcp/servers', 1024 * 1024], ['POST', '/api/mcp/servers/import', 1024 * 1024], ['PATCH', '/api/mcp/servers/missing', 1024 * 1024],
  ['POST', '/api/mcp/servers/missing/accept-tools', 1024 * 1024], ['POST', '/api/mcp/servers/missing/inspect', 1024 * 1024],
];

/** Routes that take no body: a body they are sent must still be readable JSON. */
const BODYLESS_POSTS = ['/api/catalog/reload', '/api/mcp/servers/missing/test'];

const LIST_ROUTES = ['/api/sessions', '/api/settings', '/api/projects', '/api/catalog/sources', '/api/catalog/tools', '/api/mcp/servers', '/readyz'];
const JUNK_QUERIES = ['?limit=-1', '?limit=1e309', '?limit[]=1', '?q=%', '?q=%E0%A4%A', '?q[a]=b', '?status=bogus', `?q=${'x'.repeat(8000)}`, '?%=1'];

let tried = 0;
const failures: string[] = [];
beforeEach(() => {
  failures.length = 0;
});

function checkAdmin(where: string, answer: Answer): void {
  tried += 1;
  let shapeOk = false;
  try {
    const body = JSON.parse(answer.text) as { error?: { code?: unknown; message?: unknown } };
    shapeOk = typeof body.error?.code === 'string' && /^[a-z_]+$/.test(body.error.code) && typeof body.error.message === 'string';
  } catch {
    shapeOk = false;
  }
  const ok = answer.status >= 400 && answer.status < 500 && answer.contentType.startsWith('application/json') && shapeOk && !/\bat .+\.(js|ts):\d+/.test(answer.text);
  if (!ok) failures.push(`${where} → ${answer.status} ${answer.contentType} ${answer.text.slice(0, 160)}`);
}

function checkRpc(where: string, answer: Answer, expectedCode?: number): void {
  tried += 1;
  let code: unknown;
  let message = '';
  try {
    const body = JSON.parse(answer.text) as { jsonrpc?: string; error?: { code?: unknown; message?: string } };
    if (body.jsonrpc === '2.0') ({ code, message = '' } = body.error ?? {});
  } catch {
    code = undefined;
  }
  const ok =
    answer.status >= 400 && answer.status < 500 && answer.contentType.startsWith('application/json') && typeof code === 'number' &&
    (expectedCode === undefined || code === expectedCode) && !message.includes('"code"') && !/\bat .+\.(js|ts):\d+/.test(answer.text);
  if (!ok) failures.push(`${where} → ${answer.status} ${answer.contentType} ${answer.text.slice(0, 200)}`);
}

describe('bad-input corpus', () => {
  it('answers junk query strings on every list route without a 5xx or HTML', async () => {
    for (const path of LIST_ROUTES) {
      for (const query of JUNK_QUERIES) {
        tried += 1;
        const answer = await send('GET', path + query, { headers: {} });
        if (answer.status >= 500 || !answer.contentType.startsWith('application/json')) failures.push(`GET ${path}${query.slice(0, 40)} → ${answer.status} ${answer.text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers every route without the bearer token with a 401 JSON error', async () => {
    for (const [method, pattern] of ID_ROUTES) checkAdmin(`${method} ${pattern} (no token)`, await send(method, pattern.replaceAll(':id', 'x'), { headers: {} }, false));
    for (const [method, path] of BODY_ROUTES) checkAdmin(`${method} ${path} (no token)`, await send(method, path, { headers: JSON_TYPE, body: json({}) }, false));
    checkRpc('POST /mcp (no token)', await send('POST', '/mcp', { headers: mcpHeaders(), body: json({ jsonrpc: '2.0', id: 1, method: 'ping' }) }, false));
    expect(failures).toEqual([]);
  });

  it('refuses unreadable bodies on routes that take no body', async () => {
    for (const path of BODYLESS_POSTS) {
      for (const input of readingInputs(1024 * 1024)) checkAdmin(`POST ${path} ${input.label}`, await send('POST', path, input));
    }
    expect(failures).toEqual([]);
  });

  it('answers every bad id on every admin route with a 4xx JSON error', async () => {
    for (const [method, pattern] of ID_ROUTES) {
      for (const id of BAD_IDS) {
        const path = pattern.replaceAll(':id', id);
        checkAdmin(`${method} ${path.slice(0, 80)}`, await send(method, path, { headers: {} }));
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers every bad body on every admin JSON route with a 4xx JSON error', async () => {
    for (const [method, path, limit] of BODY_ROUTES) {
      for (const input of bodyInputs(limit)) checkAdmin(`${method} ${path} ${input.label}`, await send(method, path, input));
    }
    expect(failures).toEqual([]);
  });

  it('answers bad bodies and bad messages on /mcp with JSON-RPC errors only', async () => {
    const session = { 'mcp-session-id': mcpSessionId };
    for (const input of bodyInputs(4 * 1024 * 1024)) {
      const headers = { accept: 'application/json, text/event-stream', ...input.headers };
      checkRpc(`POST /mcp ${input.label}`, await send('POST', '/mcp', { ...input, headers }));
      checkRpc(`POST /mcp (session) ${input.label}`, await send('POST', '/mcp', { ...input, headers: { ...headers, ...session } }));
    }
    const messages: Array<[string, unknown, number]> = [
      ['empty object', {}, -32600],
      ['method not a string', { jsonrpc: '2.0', id: 1, method: 5 }, -32600],
      ['no jsonrpc', { id: 1, method: 'tools/list' }, -32600],
      ['tools/call name is a number', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 5 } }, -32602],
      ['tools/call arguments is a string', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'x', arguments: 'a' } }, -32602],
      ['tools/call without params', { jsonrpc: '2.0', id: 4, method: 'tools/call' }, -32602],
      ['logging/setLevel to no level', { jsonrpc: '2.0', id: 5, method: 'logging/setLevel', params: { level: 'verbose' } }, -32602],
      ['resources/read without a uri', { jsonrpc: '2.0', id: 6, method: 'resources/read', params: {} }, -32602],
      ['a null id', { jsonrpc: '2.0', id: null, method: 'ping' }, -32600],
    ];
    for (const [label, message, code] of messages) {
      checkRpc(`POST /mcp (session) ${label}`, await send('POST', '/mcp', { headers: { ...mcpHeaders(), ...session }, body: json(message) }), code);
    }
    expect(failures).toEqual([]);
  });

  it('tells what is wrong with invalid tools/call params in words, not a schema dump', async () => {
    const answer = await send('POST', '/mcp', {
      headers: { ...mcpHeaders(), 'mcp-session-id': mcpSessionId },
      body: json({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'x', arguments: 'a' } }),
    });
    const body = JSON.parse(answer.text) as { id: unknown; error: { code: number; message: string } };
    expect(body.id).toBe(9);
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toMatch(/^Invalid tools\/call params: arguments: /);
  });

  it('refuses a JSON body sent without content-type instead of ignoring it', async () => {
    const answer = await send('PATCH', '/api/settings', { headers: {}, body: json({ connectors: ['arxiv'] }) });
    expect(answer.status).toBe(415);
    expect(JSON.parse(answer.text).error.code).toBe('unsupported_media_type');
    const settings = JSON.parse((await send('GET', '/api/settings', { headers: {} })).text);
    expect(settings.settings.connectors).toBeNull();
  });

  it('answers unknown paths outside /api with a JSON 404, not an HTML page', async () => {
    checkAdmin('GET /nowhere', await send('GET', '/nowhere', { headers: {} }));
    checkAdmin('GET /%', await send('GET', '/%', { headers: {} }));
    expect(failures).toEqual([]);
    // Printed for docs/reliability.md (the "Bad-input corpus" section).
    process.stderr.write(`bad-input corpus: ${tried} inputs tried\n`);
  });
});
