/** Waits for `work` (its failure is reported elsewhere), at most `limitMs`. */
export async function boundedWait(work: Promise<void> | undefined, limitMs: number): Promise<void> {
  if (!work) return;
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => (timer = setTimeout(resolve, limitMs)));
  await Promise.race([work.catch(() => {}), elapsed]);
  clearTimeout(timer);
}
