/** The p-th percentile (0–100) of a sample, nearest-rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** The median of a few runs. */
export function median(values: number[]): number {
  return percentile(values, 50);
}

export const round = (n: number, digits = 2) => Number(n.toFixed(digits));
