import { fileURLToPath } from 'node:url';
import express, { Router, type RequestHandler } from 'express';

/**
 * The page may load only its own files and talk only to its own origin: no inline script or style,
 * no framing, no form posts elsewhere. Scripts are ES modules from /js, the one stylesheet is /app.css.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Where the page's files are: admin/page beside this module (dist/admin/page once built). */
const PAGE_DIR = fileURLToPath(new URL('./page/', import.meta.url));

const pageHeaders: RequestHandler = (_req, res, next) => {
  res.set({
    'content-security-policy': PAGE_CSP,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    // The page is small and changes with the gateway version: always revalidate.
    'cache-control': 'no-cache',
  });
  next();
};

/**
 * The admin web page at `/` (seed §14): static files only. It carries no secret — the token is
 * pasted into the page and sent as a bearer header to /api — so it is served without auth, behind
 * the same Host/Origin guard as the API.
 */
export function pageRoutes(): Router {
  const router = Router();
  const files = express.static(PAGE_DIR, { index: 'index.html', dotfiles: 'ignore', redirect: false, fallthrough: true });
  router.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path !== '/' && req.path !== '/index.html' && req.path !== '/app.css' && !req.path.startsWith('/js/')) return next();
    pageHeaders(req, res, () => files(req, res, next));
  });
  return router;
}
