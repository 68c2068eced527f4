/** A filter bound from a date (`2025-01-31`) or a date-time. A date-only `to` covers that whole day. */
export function dateFilterBound(text: string, side: 'from' | 'to'): { at: Date; exclusive: boolean } {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text.trim());
  const at = new Date(dateOnly ? `${text.trim()}T00:00:00.000Z` : text);
  if (side === 'to' && dateOnly) return { at: new Date(at.getTime() + 86_400_000), exclusive: true };
  return { at, exclusive: false };
}

/** Runs `work` over `items` with at most `limit` at once (each mostly waits on a venue). */
export async function inBatches<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  });
  await Promise.all(runners);
}
