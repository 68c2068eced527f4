import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { endSession } from '../lib/session-store';
import { FakeEventSource } from '../testing/fake-event-source';
import { mockFetch } from '../testing/fetch-mock';
import { loginAs, renderApp } from '../testing/render';

function dashboardWith(closedTrades: number, netPnl: string) {
  return {
    range: { from: '2026-01-01T00:00:00.000Z', to: '2026-01-31T00:00:00.000Z', timezone: 'UTC' },
    currency: { currency: 'USD', converted: false, rate: null, rateSource: null },
    metrics: { netPnl, pnlPercent: '0.50', winRate: '100.00', closedTrades },
    equityCurve: { kind: 'equity', points: [] },
    dailyPnl: [],
    balanceByAccount: [{ accountId: 'acc-1', nickname: 'Paper', exchange: 'paper', balance: '10000.00' }],
    capitalByBot: [{ botId: 'bot-1', nickname: 'Follower', deployed: '0.00', openTrades: 0 }],
  };
}

describe('live updates', () => {
  it('refreshes the open Dashboard when a trade closes, without reload, and stops at logout', async () => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    let closed = 0;
    let tickets = 0;
    const { requests } = mockFetch((request) => {
      if (request.path === '/api/dashboard')
        return { body: { success: true, results: dashboardWith(closed, closed ? '4.20' : '0.00') } };
      if (request.method === 'POST' && request.path === '/api/events/ticket') {
        tickets += 1;
        const results = { ticket: `ktk_${tickets}`, expiresAt: '2026-01-01T00:00:30.000Z' };
        return { body: { success: true, results } };
      }
      return undefined;
    });
    loginAs();
    renderApp('/dashboard');
    const closedTrades = await screen.findByRole('region', { name: 'Closed trades' }, { timeout: 5_000 });
    // Label, then the figure, then the period.
    expect(closedTrades.textContent).toMatch(/^Closed trades0[A-Z]/);

    // Opened with a single-use ticket asked for with the session, never the access token in the URL.
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const stream = FakeEventSource.latest();
    expect(stream.url).toBe('/api/events?ticket=ktk_1');
    expect(stream.url).not.toContain('tok_test');
    const ticketRequest = requests.find((request) => request.path === '/api/events/ticket');
    expect(ticketRequest?.headers.authorization).toBe('Bearer tok_test');
    act(() => stream.emit('ready'));
    expect(screen.getByTestId('live-status').getAttribute('data-status')).toBe('live');

    closed = 1;
    // The figures' call (the open positions panel and the total equity are their own calls).
    const figureReads = () =>
      requests.filter(
        (request) =>
          request.path === '/api/dashboard' &&
          !['openPositions', 'equity'].includes(
            new URL(request.url, 'http://localhost').searchParams.get('include') ?? '',
          ),
      ).length;
    const before = figureReads();
    // A burst (the order fills, the trade closes, the balance moves) refetches the dashboard once.
    act(() => {
      stream.emit('order', 'b-1');
      stream.emit('trade', 'b-2');
      stream.emit('balance', 'b-3');
    });
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Closed trades' }).textContent).toMatch(
        /^Closed trades1[A-Z]/,
      ),
    );
    expect(screen.getByRole('region', { name: 'Net PnL' }).textContent).toContain('+$4.20');
    expect(figureReads()).toBe(before + 1);

    act(() => endSession());
    expect(stream.readyState).toBe(FakeEventSource.CLOSED);
    expect(FakeEventSource.instances).toHaveLength(1);
  });
});
