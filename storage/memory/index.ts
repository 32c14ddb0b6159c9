export { openMemoryStorage } from './openMemoryStorage.js';
export { MemorySessionStore } from './memorySessionStore.js';
export { MemoryInvocationStore } from './memoryInvocationStore.js';
export { MemoryPermissionStore } from './memoryPermissionStore.js';
export { MemoryProjectStore } from './memoryProjectStore.js';
export { MemorySettingsStore } from './memorySettingsStore.js';
export { MemoryArtifactStore } from './memoryArtifactStore.js';
export { MemoryCas } from './memoryCas.js';
