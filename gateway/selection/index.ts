export { createConnectorSelection, decideEffectiveConnectors, type ConnectorSelection } from './connectorSelection.js';
