import { describe, expect, it } from 'vitest';
import { GatewayError, silentLogger } from '../../../gateway/core/index.js';
import { SourceRegistry } from '../../../gateway/registry/index.js';
import type { UpstreamClient } from '../../../gateway/upstream/index.js';
import type { SourceManifest } from '../../../catalog/index.js';
import { FakeClock } from '../../fixtures/brokerDoubles.js';

/** A client whose tools/list always fails with `error`. */
const failing = (error: Error) => ({ listTools: async () => Promise.reject(error), close: async () => {} }) as unknown as UpstreamClient;
const manifest = (id: string) => ({ id, type: 'custom', displayName: id }) as unknown as SourceManifest;

async function registryWith(prefix: 'mcp' | 'short') {
  const registry = new SourceRegistry({ toolPrefix: prefix, log: silentLogger, clock: new FakeClock() });
  registry.add(manifest('custom-0a1b2c3d4e5f'), failing(new GatewayError('auth_required', 'Log in first: POST …/oauth/start.')), { label: 'notes' });
  registry.add(manifest('custom-ffffffffffff'), failing(new Error('spawn ENOENT')), { enabled: false, label: 'off' });
  await registry.discoverAll();
  return registry;
}

describe('SourceRegistry.failedSourceOf: the source a name belongs to while its discovery failed', () => {
  it('finds it by its label or its Source ID, with the code of the failure', async () => {
    const registry = await registryWith('mcp');
    expect(registry.failedSourceOf('mcp__notes__write_note')?.discovery).toMatchObject({ state: 'error', code: 'auth_required' });
    expect(registry.failedSourceOf('mcp__custom-0a1b2c3d4e5f__echo_1a2b3c')?.manifest.id).toBe('custom-0a1b2c3d4e5f');
  });

  it('finds nothing for another name, a name without the prefix, or a disabled source', async () => {
    const registry = await registryWith('mcp');
    expect(registry.failedSourceOf('mcp__other__write_note')).toBeUndefined();
    expect(registry.failedSourceOf('notes__write_note')).toBeUndefined();
    expect(registry.failedSourceOf('mcp__off__tool')).toBeUndefined();
  });

  it('reads names without the mcp__ prefix when the gateway lists them so', async () => {
    const registry = await registryWith('short');
    expect(registry.failedSourceOf('notes__write_note')?.manifest.id).toBe('custom-0a1b2c3d4e5f');
  });
});
