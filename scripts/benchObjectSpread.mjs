// Measures what building a per-call object costs on this Node: a spread followed by more fields,
// as the broker's stages used to, against Object.assign onto a fresh object and a plain literal
// (gateway/core/withFields.ts). Run: node scripts/benchObjectSpread.mjs
const ROUNDS = 1_000_000;

function cpuNsPerCall(make) {
  for (let i = 0; i < 50_000; i++) make(i);
  const before = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) make(i);
  const used = process.cpuUsage(before);
  return Math.round(((used.user + used.system) * 1000) / ROUNDS);
}

const intent = (i) => ({ id: `inv_${i}`, sessionId: 'ses_1', projectId: null, toolName: 'mcp__bench__echo', origin: 'agent', argumentsHash: 'ab', startedAt: '2026-12-05T00:00:00.000Z' });
const ending = { sourceId: 'bench', toolId: 'echo', status: 'ok', errorCode: null, retryable: null, attempts: 1, cacheHit: false, queueWaitMs: 0, durationMs: 3, sizeBytes: 10, casHash: 'cd', authorizationId: 'pauth_1', endedAt: '2026-12-05T00:00:00.003Z' };

const cases = {
  'spread, then 1 field in the literal': (i) => ({ ...intent(i), tool: 1 }),
  'Object.assign({}, base, { 1 field })': (i) => Object.assign({}, intent(i), { tool: 1 }),
  'spread, then 14 fields in the literal': (i) => ({ ...intent(i), ...ending, endedAt: 'x' }),
  'Object.assign({}, base, { 14 fields })': (i) => Object.assign({}, intent(i), ending, { endedAt: 'x' }),
  'spread alone': (i) => ({ ...intent(i) }),
  'the 21 fields as one literal': (i) => {
    const t = intent(i);
    return { id: t.id, sessionId: t.sessionId, projectId: t.projectId, toolName: t.toolName, origin: t.origin, argumentsHash: t.argumentsHash, startedAt: t.startedAt, ...ending };
  },
};
console.log(`Node ${process.version}, CPU ns per object (${ROUNDS.toLocaleString('en')} each):`);
for (const [name, make] of Object.entries(cases)) console.log(`  ${name.padEnd(42)} ${cpuNsPerCall(make)}`);
