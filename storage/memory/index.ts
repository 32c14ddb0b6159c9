export { openMemoryStorage } from './openMemoryStorage.js';
export { MemorySessionStore } from './memorySessionStore.js';
export { MemoryInvocationStore } from './memoryInvocationStore.js';
export { MemoryPermissionStore } from './memoryPermissionStore.js';
export { MemoryProjectStore } from './memoryProjectStore.js';
export { MemorySettingsStore } from './memorySettingsStore.js';
export { MemoryCas } from './memoryCas.js';
export { MemoryExtractionStore } from './memoryExtractionStore.js';
