import { badge, h, oneAtATime, render } from './dom.js';
import { sessionRouteExists, showTabButton } from './featureRoute.js';
import { progressText, sessionLabel } from './labels.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const ACTIVE = new Set(['running', 'retrying', 'verifying']);
const STATE_TONE = { completed: 'ok', failed: 'bad', cancelled: 'idle', running: 'warn', retrying: 'warn', verifying: 'warn', queued: 'idle' };

/**
 * Downloads (seed §14): each Session's candidates (from its successful calls) and DownloadJobs with
 * progress bars, cancel and retry. The tab appears only on gateways with the artifact routes;
 * progress events move the bars in place instead of redrawing the panel.
 */
export function createDownloadsPanel(ctx) {
  const root = document.getElementById('downloads');
  let available = false;
  // Progress is persisted only at transitions: the live numbers come from download.progress events.
  const live = new Map();
  /** One action at a time per candidate or job (see act). */
  const once = oneAtATime();
  let timer = null;
  const scheduleRefresh = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh().catch(() => {}), 150);
  };

  async function draw() {
    const blocks = await Promise.all(ctx.sessions.map(async (session) => {
      const [candidates, jobs] = await Promise.all([
        ctx.api('GET', `/api/sessions/${encodeURIComponent(session.id)}/artifact-candidates`).then((r) => r.candidates ?? [], () => []),
        ctx.api('GET', `/api/sessions/${encodeURIComponent(session.id)}/download-jobs`).then((r) => r.jobs ?? [], () => []),
      ]);
      return { session, candidates, jobs };
    }));
    const shown = blocks.filter((b) => b.candidates.length || b.jobs.length);
    render(root, shown.length === 0 ? h('p', { class: 'muted' }, 'No download candidates or jobs yet: they appear when an agent\'s search offers files.') : shown.map(sessionBlock));
  }

  function sessionBlock({ session, candidates, jobs }) {
    return h('section', { class: 'card', 'aria-label': `Downloads of ${sessionLabel(session)}` },
      h('h3', {}, sessionLabel(session)),
      h('h4', {}, `Jobs (${jobs.length})`),
      jobs.length ? h('ul', { class: 'jobs' }, ...jobs.map(jobRow)) : h('p', { class: 'muted' }, 'No jobs.'),
      h('h4', {}, `Candidates (${candidates.length})`),
      h('ul', { class: 'candidates' }, ...candidates.slice(0, 100).map((entry) => candidateRow(session, entry))));
  }

  function candidateRow(session, entry) {
    const c = entry.candidate ?? entry;
    const label = c.filename ?? c.id;
    const key = `candidate:${session.id}:${entry.mcpInvocationId}:${c.id}`;
    const download = () => act(key, () => ctx.api('POST', `/api/sessions/${encodeURIComponent(session.id)}/artifact-plans`, { mcpInvocationId: entry.mcpInvocationId, candidateId: c.id }));
    return h('li', {}, h('strong', {}, label), ` — ${c.sourceId ?? ''} ${c.kind ?? ''} ${c.license ? `(${c.license})` : ''} `,
      entry.mcpInvocationId ? h('button', { type: 'button', class: 'small secondary', onclick: download }, `Download ${label}`) : null);
  }

  function jobRow(persisted) {
    const job = { ...persisted, ...(ACTIVE.has(persisted.state) ? live.get(persisted.id) : {}) };
    const label = job.destinationPath ?? job.id;
    const state = job.state;
    return h('li', { dataset: { jobId: job.id } }, h('strong', {}, label), ' ', badge('State', state, STATE_TONE[state] ?? 'idle'), ' ',
      h('progress', { max: String(job.totalBytes ?? 1), value: job.totalBytes ? String(job.bytesDone) : undefined, 'aria-label': `Progress of ${label}` }),
      h('span', { class: 'bytes', title: exactBytes(job.bytesDone, job.totalBytes) }, ` ${progressText(job.bytesDone, job.totalBytes)} `),
      job.errorMessage ? h('span', { class: 'error' }, job.errorMessage) : null,
      TERMINAL.has(state) ? null : jobButton(job, 'cancel', 'secondary small', `Cancel ${label}`),
      state === 'failed' || state === 'cancelled' ? jobButton(job, 'retry', 'small', `Retry ${label}`) : null);
  }

  function jobButton(job, verb, className, text) {
    const key = `job:${job.id}`;
    return h('button', { type: 'button', class: className, onclick: () => act(key, () => ctx.api('POST', `/api/download-jobs/${encodeURIComponent(job.id)}/${verb}`)) }, text);
  }

  function moveBar({ jobId, bytesDone, totalBytes }) {
    live.set(jobId, { bytesDone, totalBytes });
    const row = root.querySelector(`li[data-job-id="${CSS.escape(jobId)}"]`);
    if (!row) return false;
    const bar = row.querySelector('progress');
    if (totalBytes) {
      bar.max = totalBytes;
      bar.value = bytesDone;
    }
    const text = row.querySelector('.bytes');
    text.textContent = ` ${progressText(bytesDone, totalBytes)} `;
    text.title = exactBytes(bytesDone, totalBytes);
    return true;
  }

  /**
   * One action per candidate or job at a time, until the list shows its outcome: a second click (a
   * double click, or a click on the same button drawn again meanwhile) would download the file
   * twice, or be refused and hide the first one's outcome.
   */
  function act(key, work) {
    return once(key, async () => {
      try {
        await work();
      } catch (error) {
        ctx.toast(error.message, 'bad');
      }
      await refresh();
    });
  }

  async function refresh() {
    available = await sessionRouteExists(ctx, 'download-jobs');
    showTabButton('downloads', available);
    if (available) await draw();
  }

  return {
    refresh,
    onEvent(event) {
      if (!available) return;
      if (event.type === 'download.progress' && moveBar(event.data ?? {})) return;
      // A transition's own numbers start over what the live map knew (a retry from scratch).
      if (event.type === 'download.updated' && event.data?.id) live.set(event.data.id, { bytesDone: event.data.bytesDone, totalBytes: event.data.totalBytes });
      if (/^(download|artifact)\./.test(event.type)) scheduleRefresh();
    },
  };
}

/** The exact counts, shown on hover. */
function exactBytes(done, total) {
  return total ? `${done} of ${total} bytes` : `${done} bytes`;
}
