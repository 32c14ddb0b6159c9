import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../gateway/core/index.js';
import { runTool } from '../../../sources/shared/index.js';

/** What a tool that throws `error` answers. */
const answerTo = (error: unknown) => runTool(async () => Promise.reject(error));

describe('runTool: a failed tool body', () => {
  it("keeps the wire code of an error that carries one: the shared pacing's Redis not answering is retryable storage_unavailable", async () => {
    const refused = await answerTo(new GatewayError('storage_unavailable', 'Redis did not answer for the pace:ncbi limiter; try again shortly.', { retryable: true }));
    expect(refused.structuredContent).toEqual({
      error: { code: 'storage_unavailable', message: 'Redis did not answer for the pace:ncbi limiter; try again shortly.', retryable: true },
    });
  });

  it('anything else is an unexpected source failure, including errors whose code is not a wire code', async () => {
    const system = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', retryable: true });
    for (const error of [new Error('boom'), system, 'text']) {
      expect((await answerTo(error)).structuredContent).toMatchObject({ error: { code: 'upstream_error', retryable: false } });
    }
  });
});
