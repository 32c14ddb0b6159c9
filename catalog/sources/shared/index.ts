export * from './sourceDefinition.js';
export * from './providerError.js';
export * from './providerFetch.js';
export * from './text.js';
export * from './candidateId.js';
export * from './toolResponses.js';
export * from './envelope.js';
export * from './xml.js';
