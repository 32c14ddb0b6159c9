export * from './flags.js';
export * from './parseCommandLine.js';
