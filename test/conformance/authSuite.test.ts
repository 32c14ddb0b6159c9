import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../fixtures/cliProcess.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

/** The compiled entry (`npm run build` compiles test/ too). */
const ENTRY = fileURLToPath(new URL('../../dist/test/conformance/upstreamClient.js', import.meta.url));
const CONFORMANCE = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));

/** Every scenario of `--suite auth` in @modelcontextprotocol/conformance 0.1.13 (docs/conformance.md lists the results). */
const AUTH_SCENARIOS = [
  'metadata-default', 'metadata-var1', 'metadata-var2', 'metadata-var3', 'basic-cimd', 'scope-from-www-authenticate',
  'scope-from-scopes-supported', 'scope-omitted-when-undefined', 'scope-step-up', 'scope-retry-limit', 'token-endpoint-auth-basic',
  'token-endpoint-auth-post', 'token-endpoint-auth-none', 'resource-mismatch', 'pre-registration',
].map((name) => `auth/${name}`);

/** One gateway for every scenario (each adds its own custom server): fifteen start-ups would cost most of the run. */
let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(async () => {
  await gateway?.dispose();
});

function runSuite(): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CONFORMANCE, 'client', '--suite', 'auth', '--timeout', '300000', '--command', `node ${ENTRY}`],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, SCIGATE_CONFORMANCE_GATEWAY: JSON.stringify({ url: gateway.url, token: gateway.token }) },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 900_000,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

describe('the MCP conformance auth scenarios against the upstream OAuth client', () => {
  it('passes every scenario of --suite auth', { timeout: 900_000 }, async () => {
    expect(existsSync(ENTRY), 'run `npm run build` first: the suite runs the compiled entry').toBe(true);
    const { code, output } = await runSuite();
    const summary = output.slice(output.indexOf('=== SUITE SUMMARY ==='));
    for (const scenario of AUTH_SCENARIOS) expect(summary, summary).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
    expect(summary).toMatch(/Total: \d+ passed, 0 failed, 0 warnings/);
    expect(code).toBe(0);
  });
});
