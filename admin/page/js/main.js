import { api, ApiError, openEvents, routeExists, token } from './api.js';
import { h, submitOnce } from './dom.js';
import { createServersPanel } from './servers.js';
import { createInspectorPanel } from './inspector.js';
import { createApprovalsPanel } from './approvals.js';
import { createAuditPanel } from './audit.js';
import { createDownloadsPanel } from './downloads.js';
import { createExtractionsPanel } from './extractions.js';

const $ = (id) => document.getElementById(id);

/** What every panel shares: the API, messages, confirmation, tabs and the Session list. */
function createContext() {
  const listeners = new Set();
  const ctx = {
    api,
    sessions: [],
    toast(message, tone = 'ok') {
      const item = h('p', { class: `toast ${tone}` }, message);
      $('toasts').append(item);
      setTimeout(() => item.remove(), tone === 'bad' ? 10000 : 5000);
    },
    confirm(text, action = 'Confirm') {
      const dialog = $('confirm');
      $('confirm-text').textContent = text;
      $('confirm-ok').textContent = action;
      dialog.returnValue = '';
      dialog.showModal();
      return new Promise((resolve) => dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true }));
    },
    showTab,
    async refreshSessions() {
      const sessions = (await api('GET', '/api/sessions')).sessions;
      // Listeners hear only real changes, so a panel that refreshes the list cannot loop.
      const changed = JSON.stringify(sessions) !== JSON.stringify(ctx.sessions);
      ctx.sessions = sessions;
      if (changed) for (const listener of listeners) listener(ctx.sessions);
      return ctx.sessions;
    },
    onSessions(listener) {
      listeners.add(listener);
    },
  };
  return ctx;
}

function showTab(name) {
  for (const button of document.querySelectorAll('#tabs button')) {
    const active = button.dataset.tab === name;
    if (active) button.setAttribute('aria-current', 'page');
    else button.removeAttribute('aria-current');
    $(`panel-${button.dataset.tab}`).hidden = !active;
  }
  sessionStorage.setItem('scigate.tab', name);
}

function setLiveState(state) {
  const words = { live: 'Live: updates arrive as they happen', reconnecting: 'Reconnecting to live updates…', unauthorized: 'The token was refused' };
  $('live-state').textContent = words[state] ?? state;
  $('live-state').dataset.state = state;
}

async function start(ctx) {
  $('token-gate').hidden = true;
  $('tabs').hidden = false;
  $('main').hidden = false;
  $('sign-out').hidden = false;
  // The OAuth callback route answers (without the "No route" 404) only where OAuth exists.
  ctx.features = { oauth: await routeExists('/api/mcp/oauth/callback') };
  const byTab = {
    servers: createServersPanel(ctx), inspector: createInspectorPanel(ctx), approvals: createApprovalsPanel(ctx),
    audit: createAuditPanel(ctx), downloads: createDownloadsPanel(ctx), extractions: createExtractionsPanel(ctx),
  };
  const panels = Object.values(byTab);
  // Audit rows and new Sessions arrive without an event: a tab opened shows fresh data.
  ctx.onTabShown = (name) => void ctx.refreshSessions().catch(() => {})
    .then(() => byTab[name]?.refresh()).catch((e) => ctx.toast(e.message, 'bad'));
  showTab(sessionStorage.getItem('scigate.tab') ?? 'servers');
  const refreshAll = () => Promise.all([ctx.refreshSessions().catch(() => {}), ...panels.map((p) => p.refresh().catch((e) => ctx.toast(e.message, 'bad')))]);
  await refreshAll();
  // A remembered tab whose API is gone (a gateway without downloads, say) falls back to the servers.
  if (document.querySelector('#tabs button[aria-current="page"]')?.hidden) showTab('servers');
  openEvents({
    onState: (state) => {
      setLiveState(state);
      if (state === 'live') void refreshAll();
      if (state === 'unauthorized') signOut('The token was refused; paste the current one.');
    },
    onEvent: (event) => {
      if (event.type.startsWith('session')) void ctx.refreshSessions().catch(() => {});
      for (const [name, panel] of Object.entries(byTab)) deliverTo(name, panel, event);
    },
  });
}

/**
 * One live event to one panel. A panel that throws (a bug, data it did not expect) must not keep
 * the event from the panels after it, which would show stale data until the next reload.
 */
function deliverTo(name, panel, event) {
  try {
    panel.onEvent?.(event);
  } catch (error) {
    console.error(`The ${name} panel could not show the live update "${event.type}"; the other panels still show it. Reload the page if the ${name} panel looks out of date.`, error);
  }
}

function signOut(message) {
  token.clear();
  sessionStorage.removeItem('scigate.tab');
  if (message) sessionStorage.setItem('scigate.signedOut', message);
  location.reload();
}

function showGate() {
  $('token-gate').hidden = false;
  $('token-error').textContent = sessionStorage.getItem('scigate.signedOut') ?? '';
  sessionStorage.removeItem('scigate.signedOut');
  $('token-input').focus();
}

async function boot() {
  const ctx = createContext();
  for (const button of document.querySelectorAll('#tabs button')) {
    button.addEventListener('click', () => {
      showTab(button.dataset.tab);
      ctx.onTabShown?.(button.dataset.tab);
    });
  }
  $('sign-out').addEventListener('click', () => signOut());
  // One check and one start: a second submit would start the page twice (two event streams, every panel reloaded twice per event).
  $('token-form').addEventListener('submit', submitOnce($('token-form'), async () => {
    const pasted = $('token-input').value.trim();
    if (!pasted) return;
    token.set(pasted);
    try {
      await api('GET', '/api/sessions');
    } catch (error) {
      token.clear();
      $('token-error').textContent = error instanceof ApiError && error.status === 401 ? 'The gateway refused this token; run `scigate token` and paste what it prints.' : error.message;
      return;
    }
    $('token-input').value = '';
    await start(ctx);
  }));
  if (!token.get()) return showGate();
  try {
    await api('GET', '/api/sessions');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      token.clear();
      return showGate();
    }
  }
  await start(ctx);
}

void boot();
