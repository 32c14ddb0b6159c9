export * from './core/index.js';
export * from './broker/index.js';
export * from './registry/index.js';
export * from './upstream/index.js';
export * from './listener/index.js';
export * from './config/index.js';
export * from './runtime.js';
