export { createConnectorSelection, decideEffectiveConnectors, isSourceSelected, type ConnectorSelection, type ConnectorSelectionDeps } from './connectorSelection.js';
