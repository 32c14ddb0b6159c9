export { createConnectorSelection, decideEffectiveConnectors, type ConnectorSelection, type ConnectorSelectionDeps } from './connectorSelection.js';
