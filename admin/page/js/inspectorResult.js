import { badge, h, json } from './dom.js';

/**
 * One Inspector answer: success, failure or the tool's own error result; duration, a copyable
 * invocation id, the governance facts the audit row recorded (queue wait, cache, attempts,
 * authorization), normalized and raw results.
 */
export async function inspectorResult(ctx, sessionId, result) {
  const facts = await ctx.api('GET', `/api/sessions/${encodeURIComponent(sessionId)}/invocations/${encodeURIComponent(result.invocationId)}`)
    .then((r) => r.invocation, () => null);
  // The call can go through and the tool still answer with an error result (MCP's isError).
  const toolError = result.ok && result.raw?.isError === true;
  const [outcome, tone] = !result.ok ? ['failure', 'bad'] : toolError ? ['tool reported an error', 'bad'] : ['success', 'ok'];
  return h('div', { class: 'card result' },
    h('p', { class: 'outcome' }, badge('Outcome', outcome, tone), ` ${result.durationMs} ms`),
    copyableId(ctx, result.invocationId),
    result.error ? h('p', { class: 'error' }, `${result.error.code}: ${result.error.message}`) : null,
    toolError ? h('p', { class: 'error' }, 'The call itself succeeded, but the tool answered with an error result (isError: true); its message is in the result below.') : null,
    facts ? h('dl', { class: 'governance' },
      h('dt', {}, 'Queued'), h('dd', {}, `${facts.queueWaitMs} ms`),
      h('dt', {}, 'Cache'), h('dd', {}, facts.cacheHit ? 'hit' : 'miss'),
      h('dt', {}, 'Attempts'), h('dd', {}, String(facts.attempts)),
      h('dt', {}, 'Authorization'), h('dd', {}, facts.authorizationId ?? 'none needed')) : null,
    h('details', { open: true }, h('summary', {}, 'Normalized result'), h('pre', {}, json(result.normalized))),
    h('details', {}, h('summary', {}, 'Raw response'), h('pre', {}, json(result.raw))));
}

function copyableId(ctx, invocationId) {
  const idBox = h('input', { readonly: true, value: invocationId, class: 'mono', 'aria-label': 'Invocation id' });
  const copy = async () => {
    idBox.select();
    try {
      await navigator.clipboard.writeText(invocationId);
      ctx.toast('Invocation id copied.');
    } catch {
      // Clipboard access needs a permission the browser may refuse; the id is selected instead.
      ctx.toast('Press Ctrl+C to copy the selected id.', 'warn');
    }
  };
  return h('div', { class: 'field inline' }, idBox, h('button', { type: 'button', class: 'secondary small', onclick: copy }, 'Copy'));
}
