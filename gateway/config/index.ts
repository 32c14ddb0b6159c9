export * from './flags.js';
export * from './parseCommandLine.js';
export * from './sourceSettings.js';
