import { open } from 'node:fs/promises';
import { write } from 'node:fs';
const line = JSON.stringify({seq:1, kind:'intent', tool:'x', args:'a'.repeat(300)})+'\n';
const wcb = (fd, b, o) => new Promise((res, rej) => write(fd, b, o, b.length - o, null, (e, n) => e ? rej(e) : res(n)));
async function run(mode, n) {
  const h = await open(`${process.env.TMPDIR ?? '/tmp'}/scigate-journal-bench-${mode}.log`, 'a');
  const t0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const data = line + line;
    if (mode === 'append') await h.appendFile(data);
    else { const b = Buffer.from(data); let o = 0; while (o < b.length) o += await wcb(h.fd, b, o); }
  }
  const c = process.cpuUsage(t0); await h.close();
  return (c.user + c.system) / n;
}
for (let r = 0; r < 3; r++) {
  const a = await run('append', 20000), w = await run('cb', 20000);
  console.log(`pair ${r}: appendFile ${a.toFixed(1)} us, fs.write cb ${w.toFixed(1)} us, ratio ${(w/a).toFixed(2)}`);
}
