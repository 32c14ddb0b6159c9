import { fork } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
const gw = fork('dist/bench/benchGateway.js', ['http://127.0.0.1:9'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
const ready = await new Promise((r) => gw.on('message', (m) => m.type === 'ready' && r(m)));
const c = new Client({ name: 'probe', version: '1' });
const t = new StreamableHTTPClientTransport(new URL(ready.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${ready.token}` } } });
await c.connect(t);
setMaxListeners(0, t._abortController.signal);
const sid = (await (await fetch(`${ready.url}/api/sessions`, { headers: { authorization: `Bearer ${ready.token}` } })).json()).sessions[0].id;
await fetch(`${ready.url}/api/sessions/${sid}`, { method: 'PATCH', headers: { authorization: `Bearer ${ready.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ approvalMode: 'always_allow' }) });
async function time(label, fn, n = 3000) {
  for (let i = 0; i < 500; i++) await fn(i);
  const ts = [];
  for (let i = 0; i < n; i++) { const s = performance.now(); await fn(i); ts.push(performance.now() - s); }
  ts.sort((a, b) => a - b);
  console.log(label.padEnd(12), 'p50', ts[n >> 1].toFixed(3), 'p90', ts[Math.floor(n * 0.9)].toFixed(3));
}
for (let round = 0; round < 2; round++) {
  await time('ping', () => c.ping());
  await time('hit', () => c.callTool({ name: 'mcp__bench__echo_cached', arguments: { message: 'same' } }));
  await time('miss', (i) => c.callTool({ name: ready.customTool, arguments: { message: `m${i}-${round}` } }));
  await time('bad tool', () => c.callTool({ name: 'mcp__nope__x', arguments: {} }));
}
await c.close(); gw.send({ type: 'stop' });
