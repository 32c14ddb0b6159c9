export { createAdminApp, type AdminDeps } from './createAdminApp.js';
export { httpStatusOf, errorMiddleware } from './httpErrors.js';
