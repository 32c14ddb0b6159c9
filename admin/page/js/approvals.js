import { h, render, when } from './dom.js';
import { focusSpot, restoreFocus } from './focusSpot.js';
import { sessionLabel } from './labels.js';

// Focus is kept per waiting request, else per Session block (its switch, its Grants).
const ITEM = 'article.request, section.session-approvals';
const itemKey = (el) => el.dataset.requestId ?? `session:${el.dataset.sessionId}`;

/**
 * Approvals (seed §8): each active Session's waiting permission requests as cards (live through
 * the event stream), its "Always allow" switch, and its Grants with revoke.
 */
export function createApprovalsPanel(ctx) {
  const root = document.getElementById('approvals');
  const count = document.getElementById('pending-count');
  let drawing = Promise.resolve();

  async function act(work) {
    try {
      await work();
    } catch (error) {
      ctx.toast(error.message, 'bad');
    }
    await refresh();
  }
  const actions = {
    setAlwaysAllow: (session, on) => act(async () => {
      await ctx.api('PATCH', `/api/sessions/${encodeURIComponent(session.id)}`, { approvalMode: on ? 'always_allow' : 'ask_for_dangerous' });
      await ctx.refreshSessions();
    }),
    decide: (request, decision, epoch) => act(() => ctx.api('POST', `/api/permission-requests/${encodeURIComponent(request.id)}/decision`, { decision, epoch })),
    revoke: (grant) => act(() => ctx.api('DELETE', `/api/grants/${encodeURIComponent(grant.id)}`)),
  };

  async function draw() {
    // A request may come from a Session this page has not seen yet.
    const sessions = (await ctx.refreshSessions()).filter((s) => !s.endedAt);
    const blocks = await Promise.all(sessions.map((session) => sessionApprovals(ctx, session)));
    const pending = blocks.reduce((n, b) => n + b.requests.requests.length, 0);
    count.textContent = pending ? `(${pending} waiting)` : '';
    const spot = focusSpot(root, ITEM, itemKey);
    render(root, blocks.length === 0 ? h('p', { class: 'muted' }, 'No active Sessions. Approvals appear here when an agent asks for a dangerous action.')
      : blocks.map((block) => sessionBlock(block, actions)));
    restoreFocus(root, spot, { itemSelector: ITEM, keyOf: itemKey });
  }

  // Draws run one after another, so a burst of events never interleaves two renders.
  const refresh = () => (drawing = drawing.then(draw, draw));
  ctx.onSessions(() => void refresh().catch(() => {}));
  return {
    refresh,
    onEvent(event) {
      if (/^(permission_request|grant|session)\./.test(event.type)) void refresh().catch(() => {});
    },
  };
}

async function sessionApprovals(ctx, session) {
  const path = `/api/sessions/${encodeURIComponent(session.id)}`;
  const [requests, grants] = await Promise.all([ctx.api('GET', `${path}/permission-requests?status=pending`), ctx.api('GET', `${path}/grants`)]);
  return { session, requests, grants: grants.grants.filter((g) => !g.revokedAt) };
}

function sessionBlock({ session, requests, grants }, actions) {
  const titleId = `approvals-${session.id}`;
  const always = h('input', { type: 'checkbox', id: `always-${session.id}`, checked: session.approvalMode === 'always_allow' });
  always.addEventListener('change', () => actions.setAlwaysAllow(session, always.checked));
  return h('section', { class: 'card session-approvals', 'aria-labelledby': titleId, dataset: { sessionId: session.id } },
    h('h3', { id: titleId }, sessionLabel(session)),
    h('div', { class: 'field check' }, always, h('label', { for: always.id }, 'Always allow: run this Session\'s dangerous actions without asking')),
    requests.requests.length === 0 ? h('p', { class: 'muted' }, 'Nothing waiting.')
      : h('ul', { class: 'requests' }, ...requests.requests.map((r) => h('li', {}, requestCard(r, (decision) => actions.decide(r, decision, requests.epoch))))),
    h('h4', {}, 'Grants'),
    grants.length === 0 ? h('p', { class: 'muted' }, 'No Grants.')
      : h('ul', { class: 'grants' }, ...grants.map((g) => h('li', {}, `${g.action} on ${g.resource} (since ${when(g.createdAt)}) `,
        h('button', { type: 'button', class: 'secondary small', 'aria-label': `Revoke the Grant for ${g.resource}`, onclick: revokeOnce(g, actions) }, 'Revoke')))));
}

/** Revoke, once per click: a click while its request runs sends nothing (the list is redrawn after). */
function revokeOnce(grant, actions) {
  let running = false;
  return () => {
    if (running) return;
    running = true;
    void actions.revoke(grant).finally(() => { running = false; });
  };
}

/** One waiting request: what, on what, with which arguments, until when; and the three decisions. */
function requestCard(request, decide) {
  const titleId = `request-${request.id}`;
  // One decision at a time: a second one (a double click) would be refused as already decided,
  // and its error would hide that the first one went through. aria-disabled, not disabled: a
  // disabled button drops keyboard focus to the page before the redraw could put it back.
  const busy = (on) => { for (const b of buttons) b.setAttribute('aria-disabled', String(on)); };
  const once = (decision) => () => {
    if (buttons.some((b) => b.getAttribute('aria-disabled') === 'true')) return;
    busy(true);
    void decide(decision).finally(() => busy(false));
  };
  const buttons = [
    h('button', { type: 'button', onclick: once('allow_once') }, 'Allow once'),
    h('button', { type: 'button', class: 'secondary', onclick: once('allow_matching'), title: `Allow every ${request.action} on ${request.resource} in this Session` }, 'Allow same type'),
    h('button', { type: 'button', class: 'danger', onclick: once('deny') }, 'Deny'),
  ];
  return h('article', { class: 'request', 'aria-labelledby': titleId, dataset: { requestId: request.id } },
    h('h4', { id: titleId }, `${request.toolName} wants to run`),
    h('dl', {},
      h('dt', {}, 'Action'), h('dd', {}, request.action),
      h('dt', {}, 'Resource'), h('dd', {}, request.resource),
      h('dt', {}, 'Asked'), h('dd', {}, when(request.createdAt)),
      h('dt', {}, 'Expires'), h('dd', {}, when(request.expiresAt))),
    h('pre', { class: 'preview', 'aria-label': 'Arguments' }, request.argumentsPreview),
    h('div', { class: 'actions' }, ...buttons));
}
