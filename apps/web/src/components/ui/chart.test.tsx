import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TimeSeriesChart } from './chart';

// The chart library draws on a canvas happy-dom does not have: its module stands in, and says it was loaded.
const loaded = vi.hoisted(() => ({ charts: [] as string[] }));
vi.mock('./time-series-chart', () => ({
  default: ({ label }: { label: string }) => {
    loaded.charts.push(label);
    return <div data-testid="drawn-chart">{label}</div>;
  },
}));

/** An IntersectionObserver the test moves: `reach()` brings every observed element near the viewport. */
function fakeIntersectionObserver() {
  const observers: Array<{ callback: IntersectionObserverCallback; targets: Element[] }> = [];
  class FakeObserver {
    private entry: { callback: IntersectionObserverCallback; targets: Element[] };
    constructor(callback: IntersectionObserverCallback) {
      this.entry = { callback, targets: [] };
      observers.push(this.entry);
    }
    observe(target: Element) {
      this.entry.targets.push(target);
    }
    disconnect() {
      this.entry.targets = [];
    }
  }
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  return {
    reach() {
      for (const { callback, targets } of observers)
        if (targets.length > 0)
          callback(
            targets.map(
              (target) => ({ target, isIntersecting: true }) as unknown as IntersectionObserverEntry,
            ),
            {} as IntersectionObserver,
          );
    },
  };
}

const props = { data: [{ time: '2026-03-01', value: 1 }], formatValue: String, label: 'Daily PnL' };

describe('TimeSeriesChart', () => {
  afterEach(() => {
    loaded.charts = [];
  });

  it('draws at once by default', async () => {
    fakeIntersectionObserver();
    render(<TimeSeriesChart {...props} />);
    expect(await screen.findByTestId('drawn-chart')).toBeTruthy();
  });

  it('deferred, loads nothing until it comes near the viewport, then draws', async () => {
    const viewport = fakeIntersectionObserver();
    render(<TimeSeriesChart {...props} deferred />);
    // Meanwhile a placeholder holds its place, named like the chart.
    expect(screen.getByRole('figure', { name: 'Daily PnL' })).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(loaded.charts).toEqual([]);
    act(() => viewport.reach());
    expect(await screen.findByTestId('drawn-chart')).toBeTruthy();
    expect(loaded.charts).toContain('Daily PnL');
  });

  it('deferred, draws at once where the browser cannot tell what is on screen', async () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<TimeSeriesChart {...props} deferred />);
    expect(await screen.findByTestId('drawn-chart')).toBeTruthy();
  });
});
