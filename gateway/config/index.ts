export { parseCommandLine, UsageError } from './parseCommandLine.js';
export type { FlagValues } from './parseCommandLine.js';
export { baseUrlVariable, sourceChildEnv, sourceDepsFromEnv, sourceLimitsFlag } from './sourceSettings.js';
