export { dangerousToolCall, artifactDownloadAction, type DangerousAction } from './dangerousActions.js';
export { createPermissionGate, PermissionGate, DEFAULT_APPROVAL_TIMEOUT_MS, type PermissionGateDeps, type AuthorizeInput } from './permissionGate.js';
export { elicitationForm, decisionFromElicitation, type ClientApprover } from './clientApproval.js';
export { parseDecisionBody } from './permissionInput.js';
