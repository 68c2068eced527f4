import { describe, expect, it } from 'vitest';
import { dateFilterBound, inBatches } from './admin-fns';

describe('dateFilterBound', () => {
  it.each([
    ['2025-01-31', 'from', '2025-01-31T00:00:00.000Z', false],
    ['2025-01-31', 'to', '2025-02-01T00:00:00.000Z', true],
    ['2025-01-31T12:30:00Z', 'from', '2025-01-31T12:30:00.000Z', false],
    ['2025-01-31T12:30:00Z', 'to', '2025-01-31T12:30:00.000Z', false],
    ['2024-12-31', 'to', '2025-01-01T00:00:00.000Z', true],
  ] as const)('%s as %s → %s (exclusive %s)', (text, side, at, exclusive) => {
    expect(dateFilterBound(text, side)).toEqual({ at: new Date(at), exclusive });
  });
});

describe('inBatches', () => {
  it('visits every item once with at most `limit` in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    await inBatches([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 2));
      seen.push(n);
      inFlight -= 1;
    });
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(peak).toBe(3);
  });
});
