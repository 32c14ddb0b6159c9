import type { Storage } from '../../gateway/core/index.js';
import { MemoryArtifactStore } from './memoryArtifactStore.js';
import { MemoryCas } from './memoryCas.js';
import { MemoryExtractionStore } from './memoryExtractionStore.js';
import { MemoryInvocationStore } from './memoryInvocationStore.js';
import { MemoryPermissionStore } from './memoryPermissionStore.js';
import { MemoryProjectStore } from './memoryProjectStore.js';
import { MemorySessionStore } from './memorySessionStore.js';
import { MemorySettingsStore } from './memorySettingsStore.js';

/** Every port in memory, nothing on disk: for tests and for trying the gateway without a data directory. */
export function openMemoryStorage(): Storage {
  const cas = new MemoryCas();
  return {
    sessions: new MemorySessionStore(),
    invocations: new MemoryInvocationStore(cas),
    permissions: new MemoryPermissionStore(),
    projects: new MemoryProjectStore(),
    settings: new MemorySettingsStore(),
    extractions: new MemoryExtractionStore(),
    cas,
    artifacts: new MemoryArtifactStore(),
    close: async () => {},
  };
}
