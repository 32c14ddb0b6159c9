export * from './errorCodes.js';
export * from './manifest.js';
export * from './resultEnvelope.js';
export * from './toolNaming.js';
export * from './sources/shared/index.js';
export * from './sources/builtinSources.js';
