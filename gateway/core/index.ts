export * from './gatewayError.js';
export * from './clock.js';
export * from './ids.js';
export * from './logger.js';
export * from './records.js';
export * from './ports.js';
export * from './canonicalJson.js';
export * from './parseInput.js';
