import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { type RecordedRequest, mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';

// The screen's code arrives only once its figures were asked for, or after 3 s: whether they were asked for
// while it loaded is then known.
const screenCode = vi.hoisted(() => {
  let figuresAsked = () => {};
  return {
    asked: new Promise<boolean>((resolve) => {
      figuresAsked = () => resolve(true);
      setTimeout(() => resolve(false), 3_000);
    }),
    figuresAsked: () => figuresAsked(),
    askedWhileLoading: undefined as boolean | undefined,
  };
});
vi.mock('../../../app/routes/dashboard', async (importOriginal) => {
  screenCode.askedWhileLoading = await screenCode.asked;
  return importOriginal();
});

const figures = {
  metrics: { netPnl: '12.50', pnlPercent: '1.25', winRate: '66.67', closedTrades: 3 },
  equityCurve: { kind: 'equity', points: [] },
  dailyPnl: [],
  balanceByAccount: [
    { accountId: 'acc-1', nickname: 'Paper main', exchange: 'paper', sandbox: false, balance: '10012.50' },
  ],
  capitalByBot: [],
  protection: { unprotected: 0, venueStopRefused: 0 },
};

/** Which call a request is: the figures, another dashboard section, or another path. */
function call(request: RecordedRequest): string {
  const include = new URL(request.url, 'http://localhost').searchParams.get('include') ?? '';
  if (request.path !== '/api/dashboard') return request.path;
  return ['openPositions', 'equity'].includes(include) ? `dashboard ${include}` : 'figures';
}

describe('Dashboard on a first visit', () => {
  it('asks for its figures while the screen’s code is still loading, and only once', async () => {
    loginAs();
    const { requests } = mockFetch((request) => {
      if (call(request) !== 'figures') return undefined;
      screenCode.figuresAsked();
      return { body: { success: true, results: figures } };
    });
    renderApp('/dashboard?range=7d');
    expect(await screen.findByRole('region', { name: 'Net PnL' }, { timeout: 8_000 })).toBeTruthy();
    expect(screenCode.askedWhileLoading).toBe(true);
    // The screen took that answer: the same filters (the last 7 days) are not asked for twice.
    const asked = requests.filter((request) => call(request) === 'figures');
    expect(asked).toHaveLength(1);
    const from = new URL(asked[0]?.url ?? '', 'http://localhost').searchParams.get('from');
    expect(screen.getByRole('region', { name: 'Net PnL' }).textContent).toContain('+$12.50');
    expect(from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
