export { artifactDownloadAction, dangerousToolCall, type DangerousAction } from './dangerousActions.js';
export { createPermissionGate, PermissionGate, type AuthorizeInput } from './permissionGate.js';
export { elicitationForm, decisionFromElicitation, type ClientApprover } from './clientApproval.js';
export { parseDecisionBody } from './permissionInput.js';
