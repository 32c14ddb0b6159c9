import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileInputSchema } from '../../gateway/registry/index.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(async () => gateway.dispose());

describe("scigate's own tool schemas", () => {
  // Built-in and native tools compile their schemas on first call (compileOnFirstUse), so start-up
  // no longer proves they compile: this does, for every such tool an agent is shown.
  it('every built-in and native tool listed has input (and output) schemas that compile', async () => {
    const client = await gateway.connect();
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(20);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['mcp__arxiv__search', 'artifact_download', 'paper_extract_pdf']));
    const broken = tools.flatMap((tool) =>
      [tool.inputSchema, tool.outputSchema].filter(Boolean).flatMap((schema) => {
        try {
          compileInputSchema(schema);
          return [];
        } catch (error) {
          return [`${tool.name}: ${(error as Error).message}`];
        }
      }),
    );
    expect(broken).toEqual([]);
  });

  // An SDK client that has listed the tools checks every structuredContent against the tool's
  // outputSchema, error results included: a schema of the result alone turned each failed native
  // call into "Structured content does not match the tool's output schema" (-32602).
  it('a failed call of any listed tool reaches a client that listed them as its structured error', async () => {
    const client = await gateway.connect();
    await client.listTools();
    for (const name of ['artifact_download', 'paper_extract_pdf', 'mcp__arxiv__get']) {
      const result = await client.callTool({ name, arguments: { unexpected: true } });
      expect(result.isError, name).toBe(true);
      expect(result.structuredContent, name).toEqual({ error: expect.objectContaining({ code: 'invalid_input' }), invocationId: expect.any(String) });
    }
  });
});
