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
  return {
    sessions: new MemorySessionStore(),
    invocations: new MemoryInvocationStore(),
    permissions: new MemoryPermissionStore(),
    projects: new MemoryProjectStore(),
    settings: new MemorySettingsStore(),
    extractions: new MemoryExtractionStore(),
    cas: new MemoryCas(),
    artifacts: new MemoryArtifactStore(),
    close: async () => {},
  };
}
