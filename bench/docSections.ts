import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Replaces one generated section of a Markdown file, between `<!-- bench:name -->` and
 * `<!-- /bench:name -->`, leaving the hand-written sections around it alone; appends it when absent.
 */
export function writeDocSection(path: string, name: string, text: string): void {
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  const block = `${open}\n${text.trim()}\n${close}`;
  let doc = '';
  try {
    doc = readFileSync(path, 'utf8');
  } catch {
    doc = '# Benchmarks\n';
  }
  const start = doc.indexOf(open);
  const end = doc.indexOf(close);
  const next = start >= 0 && end > start ? doc.slice(0, start) + block + doc.slice(end + close.length) : `${doc.trimEnd()}\n\n${block}\n`;
  writeFileSync(path, next);
}
