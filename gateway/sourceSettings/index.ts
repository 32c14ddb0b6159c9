// What the built-in sources take from the environment and from --source-limits. Apart from the
// command-line parser (gateway/config), which must load nothing heavy: these need the catalog's
// schemas, and `scigate stdio` answers `initialize` before it loads them.
export { baseUrlVariable, checkProviderUrls, sourceChildEnv, sourceDepsFromEnv, sourceLimitsFlag } from './sourceSettings.js';
