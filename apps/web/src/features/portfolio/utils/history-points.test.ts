import { describe, expect, it } from 'vitest';
import { historyPoints } from './history-points';

const point = (time: string, value: string) => ({ time, value });

describe('portfolio history on the chart', () => {
  it('keeps hourly points on the user wall clock for 1D and 7D', () => {
    const points = [point('2026-03-15T22:00:00.000Z', '100.00'), point('2026-03-15T23:00:00.000Z', '101.50')];
    expect(historyPoints(points, '1d', 'Europe/Paris')).toEqual([
      { time: Date.UTC(2026, 2, 15, 23) / 1000, value: 100 },
      { time: Date.UTC(2026, 2, 16, 0) / 1000, value: 101.5 },
    ]);
  });

  it('keeps one point per day, the last, for longer periods (so "now" ends the curve)', () => {
    const points = [
      point('2026-03-14T00:00:00.000Z', '90.00'),
      point('2026-03-15T00:00:00.000Z', '95.00'),
      point('2026-03-15T13:47:10.000Z', '97.25'),
    ];
    expect(historyPoints(points, '30d', 'UTC')).toEqual([
      { time: '2026-03-14', value: 90 },
      { time: '2026-03-15', value: 97.25 },
    ]);
  });

  it('sorts what comes unsorted and drops values that are not numbers', () => {
    const points = [
      point('2026-03-15T00:00:00.000Z', '2'),
      point('2026-03-13T00:00:00.000Z', 'x'),
      point('2026-03-14T00:00:00.000Z', '1'),
    ];
    expect(historyPoints(points, 'all', 'UTC')).toEqual([
      { time: '2026-03-14', value: 1 },
      { time: '2026-03-15', value: 2 },
    ]);
  });
});
