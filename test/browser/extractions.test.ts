import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { multiPagePdf } from '../fixtures/pdfs.js';
import { PATIENT, launchAdminBrowser, type AdminBrowser, type AdminPage } from '../fixtures/browser.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

// Extractions in the page: an agent's paper_extract_pdf job appears live, completed with its
// pages and where its text is; the stored record (with the paper's title) opens on demand.
let gateway: TestGateway;
let api: AdminApi;
let browser: AdminBrowser;
let admin: AdminPage;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
  browser = await launchAdminBrowser();
});

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
});

describe('extractions panel', () => {
  it('shows an agent\'s extraction live with its pages, text resource and record', async () => {
    const client = await gateway.connect({ name: 'pdf-reader' });
    const session = await api.sessionOf('pdf-reader');
    const uploaded = await request(gateway.url)
      .post(`/api/sessions/${session.id}/files?path=${encodeURIComponent('uploads/three.pdf')}`)
      .set('authorization', `Bearer ${gateway.token}`)
      .set('content-type', 'application/pdf')
      .send(Buffer.from(await multiPagePdf()));
    expect(uploaded.status).toBe(201);

    admin = await browser.open(gateway);
    const { page } = admin;
    await admin.tab('Extractions');
    await page.getByText('No extraction jobs yet.').waitFor();
    const result = await client.callTool({ name: 'paper_extract_pdf', arguments: { path: 'uploads/three.pdf' } }, undefined, { timeout: 120_000 });
    expect(result.isError).toBeFalsy();
    const extractionId = (result.structuredContent as any).extractionId;

    const job = page.locator(`li[data-job-id="${extractionId}"]`);
    await expect.poll(() => job.locator('.badge').innerText(), PATIENT).toMatch(/completed/);
    await expect(job.innerText()).resolves.toMatch(/3 pages/);
    await expect(job.locator('.resource-uri').innerText()).resolves.toBe(`scigate://sessions/${session.id}/files/uploads/three.txt`);
    await job.getByRole('button', { name: `Show the record of ${extractionId}` }).click();
    await expect(job.locator('pre').innerText()).resolves.toContain('Three Pages of Folding');
    await admin.check('extractions-completed');
  });
});
