import { routeExists } from './api.js';

/**
 * Whether a per-Session route exists on this gateway. An unknown Session id reaches an existing
 * route (404 "No session …"); a route the gateway lacks answers 404 "No route …".
 */
export function sessionRouteExists(ctx, tail) {
  const probeId = ctx.sessions[0]?.id ?? 'probe';
  return routeExists(`/api/sessions/${encodeURIComponent(probeId)}/${tail}`);
}

/** Shows or hides a tab button. */
export function showTabButton(name, visible) {
  document.querySelector(`#tabs [data-tab="${name}"]`).hidden = !visible;
}
