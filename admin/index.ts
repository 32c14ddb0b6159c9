export { createAdminApp, type AdminDeps } from './createAdminApp.js';
export { errorMiddleware } from './httpErrors.js';
