import { badge, h, json, when } from './dom.js';
import { authBadge, authSection } from './serverAuth.js';

const CONNECTION_TONE = { ready: 'ok', untested: 'idle', error: 'bad', disabled: 'idle' };

/**
 * One custom server in the list: name and state badges, the actions, and details collapsed by
 * default (connection, auth, tools with pinned/changed definitions, last test, Inspector access).
 * `act(name, server, extra)` runs an action; the panel owns the API calls. `oauth`: see serverAuth.js.
 */
export function serverCard(server, act, { oauth }) {
  const titleId = `server-${server.id}-title`;
  const resultId = `server-${server.id}-result`;
  const isHttp = server.transport !== 'stdio';
  return h('article', { class: 'card server', dataset: { serverId: server.id }, 'aria-labelledby': titleId },
    h('header', { class: 'server-head' },
      h('h3', { id: titleId }, server.name),
      h('div', { class: 'badges' },
        // A disabled server's connection is "disabled" too: one badge says it.
        server.enabled ? badge('Connection', server.connection.state, CONNECTION_TONE[server.connection.state]) : null,
        badge('Server', server.enabled ? 'enabled' : 'disabled', server.enabled ? 'ok' : 'idle'),
        authBadge(server),
        badge('Transport', server.transport, 'idle'))),
    server.connection.message ? h('p', { class: 'muted connection-message' }, server.connection.message) : null,
    h('div', { class: 'actions' },
      h('button', { type: 'button', onclick: () => act('test', server) }, 'Test connection'),
      h('button', { type: 'button', class: 'secondary', 'aria-pressed': server.enabled ? 'true' : 'false', onclick: () => act('toggle', server) },
        server.enabled ? `Disable ${server.name}` : `Enable ${server.name}`),
      h('button', { type: 'button', class: 'secondary', onclick: () => act('edit', server) }, 'Edit'),
      h('button', { type: 'button', class: 'secondary', onclick: () => act('restart', server) }, 'Restart'),
      h('button', { type: 'button', class: 'danger', onclick: () => act('delete', server) }, 'Delete')),
    h('div', { id: resultId, class: 'test-result', role: 'status', 'aria-live': 'polite' }, server.lastTest ? testResult(server.lastTest) : null),
    h('details', { class: 'server-details' },
      // Tools agents are offered, not what a connection test counted (a disabled server offers none).
      h('summary', {}, `Details: ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'} for agents${server.hidden.length ? `, ${server.hidden.length} withheld` : ''}`),
      connectionDetails(server),
      isHttp ? authSection(server, act, oauth) : null,
      toolsSection(server, act)));
}

/** The checks of a connection test, in words. */
export function testResult(result) {
  return h('div', { class: 'checks' },
    h('p', {}, badge('Test', result.ok ? 'passed' : 'failed', result.ok ? 'ok' : 'bad'), ` in ${result.durationMs} ms, ${when(result.testedAt)}`),
    h('ul', {}, ...result.checks.map((c) => h('li', {}, `${c.ok ? 'OK' : 'Failed'} — ${c.name}${c.message ? `: ${c.message}` : ''}`))));
}

function connectionDetails(server) {
  const rows = server.transport === 'stdio'
    ? [['Command', server.command], ['Arguments', (server.args ?? []).join(' ') || '—'], ['Working directory', server.cwd || '—'],
      ['Environment', (server.env ?? []).map((e) => e.key).join(', ') || '—']]
    : [['URL', server.url], ['Headers', (server.headers ?? []).map((e) => e.key).join(', ') || '—'], ['Authentication', server.auth?.mode ?? 'none']];
  rows.push(['Timeout', `${server.timeoutSeconds} s`], ['Id', server.id], ['Updated', when(server.updatedAt)]);
  return h('section', { class: 'detail-block', 'aria-label': 'Connection details' },
    h('h4', {}, 'Connection'),
    h('dl', {}, ...rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
    rows.length && server.transport === 'stdio' ? h('p', { class: 'hint' }, 'Saved values are never shown; edit the server to replace one.') : null);
}

function toolsSection(server, act) {
  return h('section', { class: 'detail-block', 'aria-label': 'Tools' },
    h('h4', {}, 'Tools'),
    server.tools.length === 0 ? h('p', { class: 'muted' }, server.enabled ? 'No tools discovered yet; test the connection.' : 'Enable the server to discover its tools for agents, or test the connection.') : null,
    h('ul', { class: 'tools' }, ...server.tools.map((tool) => h('li', {},
      h('div', { class: 'tool-head' }, h('strong', {}, tool.title || tool.upstreamName), ' ', badge('Definition', 'pinned', 'ok'),
        h('button', { type: 'button', class: 'secondary small', 'aria-label': `Open ${tool.upstreamName} in the Inspector`, onclick: () => act('inspect', server, tool) }, 'Inspector')),
      h('p', { class: 'muted' }, tool.description || '—'),
      h('details', {}, h('summary', {}, `Input schema of ${tool.upstreamName}`), h('pre', {}, json(tool.inputSchema)))))),
    server.hidden.length ? h('div', { class: 'withheld' },
      h('h5', {}, 'Withheld from agents'),
      h('ul', {}, ...server.hidden.map((t) => h('li', {}, h('strong', {}, t.name), ' ', badge('Definition', /chang/i.test(t.reason) ? 'changed' : 'withheld', 'warn'), ` ${t.reason} `,
        /chang|accept/i.test(t.reason) ? h('button', { type: 'button', class: 'small', onclick: () => act('accept', server, t.name) }, `Accept new definition of ${t.name}`) : null)))) : null);
}
