import { GatewayError, MAX_WORKSPACE_NAME_BYTES, type SessionWorkspace } from '../core/index.js';

/** Most numbered names tried before giving up (`paper-1`, `paper-2`, …). */
const MAX_NUMBERED = 100;
/** The longest ending an output name gets after its stem. */
const LONGEST_ENDING = `-${MAX_NUMBERED}.manifest.json`;

/**
 * Where an extraction of `pdfPath` is written: `<name>.txt` and `<name>.manifest.json` beside the
 * PDF, both with the same free name (`paper-1.txt` + `paper-1.manifest.json` when `paper.txt` exists),
 * so the pair always goes together. A name too long to take those endings within the file system's
 * limit is shortened (whole characters, from its end) so that the outputs can be written.
 */
export async function outputPaths(workspace: SessionWorkspace, sessionId: string, pdfPath: string): Promise<{ textPath: string; manifestPath: string }> {
  const slash = pdfPath.lastIndexOf('/');
  const name = `${pdfPath.slice(0, slash + 1)}${fitted(pdfPath.slice(slash + 1).replace(/\.pdf$/i, ''))}`;
  for (let n = 0; n <= MAX_NUMBERED; n += 1) {
    const stem = n === 0 ? name : `${name}-${n}`;
    const textPath = `${stem}.txt`;
    const manifestPath = `${stem}.manifest.json`;
    const [text, manifest] = await Promise.all([workspace.freePath(sessionId, textPath), workspace.freePath(sessionId, manifestPath)]);
    if (text === textPath && manifest === manifestPath) return { textPath, manifestPath };
  }
  throw new GatewayError('conflict', `More than ${MAX_NUMBERED} extractions are named like "${name.slice(0, 200)}.txt"; rename the PDF.`);
}

/** The stem's first characters that leave room for the longest ending (in UTF-8 bytes, as the file system counts). */
function fitted(stem: string): string {
  const room = MAX_WORKSPACE_NAME_BYTES - LONGEST_ENDING.length;
  if (Buffer.byteLength(stem, 'utf8') <= room) return stem;
  let kept = '';
  let bytes = 0;
  for (const character of stem) {
    bytes += Buffer.byteLength(character, 'utf8');
    if (bytes > room) break;
    kept += character;
  }
  // A name may not end with a space (workspacePaths).
  return kept.trimEnd();
}
