import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticBytes } from '../fixtures/fileServer.js';
import { startDownloadGateway, type DownloadGateway } from '../fixtures/downloadGateway.js';
import { PATIENT, launchAdminBrowser, type AdminBrowser, type AdminPage } from '../fixtures/browser.js';

// Downloads in the page: a candidate an agent's search offered is downloaded as an explicit admin
// action; the job's progress bar moves live; cancel, then retry, completes it.
let g: DownloadGateway;
let browser: AdminBrowser;
let admin: AdminPage;

beforeAll(async () => {
  g = await startDownloadGateway();
  browser = await launchAdminBrowser();
});

afterAll(async () => {
  await browser?.close();
  await g?.dispose();
});

describe('downloads panel', () => {
  it('lists candidates, downloads one with live progress, cancels and retries it', async () => {
    const { client, sessionId } = await g.agent('reader');
    // Progress is reported every MiB: hold the body past the second report.
    const body = syntheticBytes(0, 3_000_000);
    g.source.offer('held.bin', { bytes: body });
    g.files.serve('/held.bin', { body, holdAt: 2_200_000 });
    await g.search(client, ['held.bin']);

    admin = await browser.open(g.gateway);
    const { page } = admin;
    await admin.tab('Downloads');
    const block = page.getByRole('region', { name: /Downloads of reader/ });
    await block.getByText('held.bin').first().waitFor();
    await admin.check('downloads-candidates');

    await block.getByRole('button', { name: 'Download held.bin' }).click();
    const job = block.locator('li[data-job-id]');
    await job.waitFor();
    await expect.poll(() => job.locator('.badge').innerText(), PATIENT).toMatch(/running/);
    const bar = () => job.locator('progress').evaluate((el: any) => ({ value: el.value, max: el.max }));
    await expect.poll(async () => (await bar()).value, PATIENT).toBeGreaterThan(0);
    await expect(bar()).resolves.toMatchObject({ max: body.length });
    expect((await bar()).value).toBeLessThan(body.length);
    await admin.check('downloads-running');

    await job.getByRole('button', { name: 'Cancel downloads/files/held.bin' }).click();
    await expect.poll(() => job.locator('.badge').innerText(), PATIENT).toMatch(/cancelled/);
    g.files.release();
    const retries: string[] = [];
    page.on('request', (r) => { if (r.url().endsWith('/retry')) retries.push(r.url()); });
    // A double click retries once: a second retry would be refused, and its error shown for a download that works.
    await job.getByRole('button', { name: 'Retry downloads/files/held.bin' }).dblclick();
    await expect.poll(() => job.locator('.badge').innerText(), PATIENT).toMatch(/completed/);
    expect(retries).toHaveLength(1);
    await expect(page.locator('.toast.bad').count()).resolves.toBe(0);
    // In words a person reads, the exact count on hover.
    await expect(job.innerText()).resolves.toContain('3.0 MB of 3.0 MB');
    await expect(job.locator('.bytes').getAttribute('title')).resolves.toBe(`${body.length} of ${body.length} bytes`);
    await admin.check('downloads-completed');
    const { body: jobs } = await g.api.get(`/api/sessions/${sessionId}/download-jobs`);
    expect(jobs.jobs).toEqual([expect.objectContaining({ state: 'completed', bytesDone: body.length })]);
  });

  it('downloads a candidate once when its button is double-clicked', async () => {
    const { client, sessionId } = await g.agent('clicker');
    const body = syntheticBytes(1, 2_000);
    g.source.offer('twice.bin', { bytes: body });
    g.files.serve('/twice.bin', { body });
    await g.search(client, ['twice.bin']);
    const clicking = await browser.open(g.gateway);
    const { page } = clicking;
    const plans: string[] = [];
    page.on('request', (r) => { if (r.method() === 'POST' && /\/artifact-plans$/.test(r.url())) plans.push(r.url()); });
    await clicking.tab('Downloads');
    const block = page.getByRole('region', { name: /Downloads of clicker/ });
    await block.getByRole('button', { name: 'Download twice.bin' }).dblclick();
    const job = block.locator('li[data-job-id]');
    await expect.poll(() => job.first().locator('.badge').innerText(), PATIENT).toMatch(/completed/);
    await expect(job.count()).resolves.toBe(1);
    expect((await g.api.get(`/api/sessions/${sessionId}/download-jobs`)).body.jobs).toHaveLength(1);
    expect(plans).toHaveLength(1);
    await clicking.context.close();
  });
});
