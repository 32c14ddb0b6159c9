export { createConnectorSelection, decideEffectiveConnectors, isSourceSelected, type ConnectorSelection } from './connectorSelection.js';
