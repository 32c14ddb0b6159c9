import { badge, h, render, when } from './dom.js';
import { sessionLabel } from './labels.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const STATE_TONE = { completed: 'ok', failed: 'bad', cancelled: 'idle', running: 'warn', retrying: 'warn', verifying: 'warn', queued: 'idle' };

/**
 * Downloads and extractions (seed §14: candidates, job state, cancel/retry). These routes land with
 * their own features; each tab appears only once its API answers on this gateway.
 */
export function createJobsPanels(ctx, routeExists) {
  const downloads = document.getElementById('downloads');
  const extractions = document.getElementById('extractions');
  const available = { downloads: false, extractions: false };

  async function detect() {
    // An unknown Session id reaches the route (404 "No session …") when it exists, "No route …" when not.
    const probeId = ctx.sessions[0]?.id ?? 'probe';
    available.downloads = await routeExists(`/api/sessions/${encodeURIComponent(probeId)}/download-jobs`);
    available.extractions = await routeExists(`/api/sessions/${encodeURIComponent(probeId)}/extraction-jobs`);
    document.querySelector('#tabs [data-tab="downloads"]').hidden = !available.downloads;
    document.querySelector('#tabs [data-tab="extractions"]').hidden = !available.extractions;
  }

  const sessionPath = (s, tail) => `/api/sessions/${encodeURIComponent(s.id)}/${tail}`;

  async function drawDownloads() {
    const blocks = await Promise.all(ctx.sessions.map(async (s) => {
      const [candidates, jobs] = await Promise.all([
        ctx.api('GET', sessionPath(s, 'artifact-candidates')).then((r) => r.candidates ?? [], () => []),
        ctx.api('GET', sessionPath(s, 'download-jobs')).then((r) => r.jobs ?? r.downloadJobs ?? [], () => []),
      ]);
      return { s, candidates, jobs };
    }));
    const shown = blocks.filter((b) => b.candidates.length || b.jobs.length);
    render(downloads, shown.length === 0 ? h('p', { class: 'muted' }, 'No download candidates or jobs yet.') : shown.map(({ s, candidates, jobs }) =>
      h('section', { class: 'card', 'aria-label': `Downloads of ${sessionLabel(s)}` },
        h('h3', {}, sessionLabel(s)),
        h('h4', {}, `Candidates (${candidates.length})`),
        h('ul', {}, ...candidates.slice(0, 100).map((c) => h('li', {}, `${c.filename ?? c.id} — ${c.sourceId ?? ''} ${c.kind ?? ''} ${c.license ? `(${c.license})` : ''}`))),
        h('h4', {}, `Jobs (${jobs.length})`),
        h('ul', { class: 'jobs' }, ...jobs.map(jobRow)))));
  }

  function jobRow(job) {
    const state = job.state ?? job.status ?? 'unknown';
    const total = job.totalBytes ?? job.sizeBytes ?? null;
    const done = job.bytesDone ?? job.bytesReceived ?? job.receivedBytes ?? 0;
    const label = `${job.filename ?? job.finalPath ?? job.id}`;
    const progress = total ? h('progress', { max: String(total), value: String(done), 'aria-label': `Progress of ${label}` }) : null;
    const act = (verb) => async () => {
      try {
        await ctx.api('POST', `/api/download-jobs/${encodeURIComponent(job.id)}/${verb}`);
      } catch (error) {
        ctx.toast(error.message, 'bad');
      }
      await refresh();
    };
    return h('li', { dataset: { jobId: job.id } }, h('strong', {}, label), ' ', badge('State', state, STATE_TONE[state] ?? 'idle'), ' ',
      progress, total ? ` ${done} of ${total} bytes ` : ` ${done} bytes `,
      job.error?.message ?? job.reason ?? '',
      TERMINAL.has(state) ? null : h('button', { type: 'button', class: 'secondary small', onclick: act('cancel') }, `Cancel ${label}`),
      state === 'failed' || state === 'cancelled' ? h('button', { type: 'button', class: 'small', onclick: act('retry') }, `Retry ${label}`) : null);
  }

  async function drawExtractions() {
    const lists = await Promise.all(ctx.sessions.map((s) => ctx.api('GET', sessionPath(s, 'extraction-jobs')).then((r) => ({ s, jobs: r.jobs ?? r.extractionJobs ?? [] }), () => ({ s, jobs: [] }))));
    const shown = lists.filter((l) => l.jobs.length);
    render(extractions, shown.length === 0 ? h('p', { class: 'muted' }, 'No extraction jobs yet.') : shown.map(({ s, jobs }) =>
      h('section', { class: 'card', 'aria-label': `Extractions of ${sessionLabel(s)}` }, h('h3', {}, sessionLabel(s)),
        h('ul', {}, ...jobs.map((job) => {
          const state = job.state ?? job.status ?? 'unknown';
          return h('li', {}, h('strong', {}, job.id), ' ', badge('State', state, STATE_TONE[state] ?? 'idle'), ` ${when(job.createdAt)} `,
            job.textPath || job.textUri ? h('span', {}, `text: ${job.textPath ?? job.textUri}`) : null,
            job.error?.message ? h('span', { class: 'error' }, ` ${job.error.message}`) : null);
        })))));
  }

  async function refresh() {
    await detect();
    if (available.downloads) await drawDownloads();
    if (available.extractions) await drawExtractions();
  }

  return {
    refresh,
    onEvent(event) {
      if (/^(download|artifact|extraction)/.test(event.type)) void refresh().catch(() => {});
    },
  };
}
