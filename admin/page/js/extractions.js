import { badge, h, json, render, when } from './dom.js';
import { sessionRouteExists, showTabButton } from './featureRoute.js';
import { sessionLabel } from './labels.js';

const STATE_TONE = { completed: 'ok', failed: 'bad', cancelled: 'idle', running: 'warn', queued: 'idle' };

/**
 * Extractions (paper_extract_pdf jobs): state, pages and characters, warnings, where the text is,
 * and the job's full record on demand. The tab appears only on gateways with the extraction routes.
 */
export function createExtractionsPanel(ctx) {
  const root = document.getElementById('extractions');
  let available = false;

  async function draw() {
    const lists = await Promise.all(ctx.sessions.map((session) => ctx.api('GET', `/api/sessions/${encodeURIComponent(session.id)}/extraction-jobs`)
      .then((r) => ({ session, jobs: r.jobs ?? r.extractionJobs ?? [] }), () => ({ session, jobs: [] }))));
    const shown = lists.filter((l) => l.jobs.length);
    render(root, shown.length === 0 ? h('p', { class: 'muted' }, 'No extraction jobs yet.') : shown.map(({ session, jobs }) =>
      h('section', { class: 'card', 'aria-label': `Extractions of ${sessionLabel(session)}` }, h('h3', {}, sessionLabel(session)),
        h('ul', { class: 'jobs' }, ...jobs.map(jobRow)))));
  }

  function jobRow(job) {
    const state = job.status ?? job.state ?? 'unknown';
    const detail = h('div', { class: 'extraction-detail' });
    const show = async () => {
      try {
        render(detail, h('pre', {}, json((await ctx.api('GET', `/api/extraction-jobs/${encodeURIComponent(job.id)}`)))));
      } catch (error) {
        ctx.toast(error.message, 'bad');
      }
    };
    return h('li', { dataset: { jobId: job.id } }, h('strong', {}, job.pdfPath ?? job.id), ' ', badge('State', state, STATE_TONE[state] ?? 'idle'),
      ` ${when(job.createdAt)}`,
      job.pageCount !== null && job.pageCount !== undefined ? ` · ${job.pageCount} pages, ${job.characterCount ?? 0} characters` : '',
      // The text is a Session resource (agents read it over MCP); the admin API serves no file bytes.
      job.textPath ? h('p', {}, 'Text: ', h('code', {}, job.textPath), ' — MCP resource ', h('code', { class: 'resource-uri' }, `scigate://sessions/${job.sessionId}/files/${job.textPath}`)) : null,
      job.warnings?.length ? h('p', { class: 'muted' }, `Warnings: ${job.warnings.join(', ')}`) : null,
      job.errorMessage ? h('p', { class: 'error' }, job.errorMessage) : null,
      h('button', { type: 'button', class: 'secondary small', onclick: show }, `Show the record of ${job.id}`), detail);
  }

  async function refresh() {
    available = await sessionRouteExists(ctx, 'extraction-jobs');
    showTabButton('extractions', available);
    if (available) await draw();
  }

  return {
    refresh,
    onEvent(event) {
      if (available && /^(extraction|paper)/.test(event.type)) void refresh().catch(() => {});
    },
  };
}
