export { parseCommandLine, UsageError } from './parseCommandLine.js';
export type { FlagValues } from './parseCommandLine.js';
