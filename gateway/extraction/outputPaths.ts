import { GatewayError, type SessionWorkspace } from '../core/index.js';

/** Most numbered names tried before giving up (`paper-1`, `paper-2`, …). */
const MAX_NUMBERED = 100;

/**
 * Where an extraction of `pdfPath` is written: `<name>.txt` and `<name>.manifest.json` beside the
 * PDF, both with the same free name (`paper-1.txt` + `paper-1.manifest.json` when `paper.txt` exists),
 * so the pair always goes together.
 */
export async function outputPaths(workspace: SessionWorkspace, sessionId: string, pdfPath: string): Promise<{ textPath: string; manifestPath: string }> {
  const name = pdfPath.replace(/\.pdf$/i, '');
  for (let n = 0; n <= MAX_NUMBERED; n += 1) {
    const stem = n === 0 ? name : `${name}-${n}`;
    const textPath = `${stem}.txt`;
    const manifestPath = `${stem}.manifest.json`;
    const [text, manifest] = await Promise.all([workspace.freePath(sessionId, textPath), workspace.freePath(sessionId, manifestPath)]);
    if (text === textPath && manifest === manifestPath) return { textPath, manifestPath };
  }
  throw new GatewayError('conflict', `More than ${MAX_NUMBERED} extractions are named like "${name.slice(0, 200)}.txt"; rename the PDF.`);
}
