import { DASHBOARD_SECTIONS } from '@kairos/contract';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DASHBOARD_TOP_N } from '../features/dashboard/api/get-dashboard';
import { DEFAULT_FILTERS, resolveRange, todayIn } from '../features/dashboard/utils/dashboard-filters';
import { EARLY_READS_GLOBAL } from '../lib/early-reads';
import { mockFetch } from '../testing/fetch-mock';
import { loginAs, renderApp } from '../testing/render';
import { earlyReadSettings, firstScreenReads } from './early-reads';

// index.html's early reads (issue 21) are only worth their requests if the screens ask for exactly these URLs: a
// URL that drifted from the screen's would be asked twice, once for nothing.

const builtSettings = async () => earlyReadSettings('');

const figures = {
  metrics: { netPnl: '42.50', pnlPercent: '4.25', winRate: '50.00', closedTrades: 2 },
  equityCurve: { kind: 'equity', points: [] },
  dailyPnl: [],
  balanceByAccount: [
    { accountId: 'acc-1', nickname: 'Paper main', exchange: 'paper', sandbox: false, balance: '10042.50' },
  ],
  capitalByBot: [],
  protection: { unprotected: 0, venueStopRefused: 0 },
};

afterEach(() => {
  delete (globalThis as Record<string, unknown>)[EARLY_READS_GLOBAL];
});

describe('index.html’s early reads', () => {
  it('are the URLs a trader’s Dashboard asks for on a first visit', { timeout: 20_000 }, async () => {
    const settings = await builtSettings();
    loginAs();
    const reads = firstScreenReads(settings, '/dashboard', '', null, new Date());
    // A trader with an account (a new user's empty Dashboard asks for neither equity nor open positions).
    const { requests } = mockFetch((request) =>
      request.url === reads[0] ? { body: { success: true, results: figures } } : undefined,
    );
    renderApp('/dashboard');
    await expect
      .poll(() => reads.filter((url) => !requests.some((r) => r.method === 'GET' && r.url === url)), {
        timeout: 8_000,
      })
      .toEqual([]);
    expect(reads).toHaveLength(5);
  });

  it('count the days in the user’s time zone as the Dashboard does', async () => {
    const settings = await builtSettings();
    expect(settings.topN).toBe(DASHBOARD_TOP_N);
    expect(settings.dashboardInclude.split(',')).toEqual(
      DASHBOARD_SECTIONS.filter((s) => s !== 'openPositions' && s !== 'equity'),
    );
    const instants = [
      '2026-03-15T23:30:00Z',
      '2026-03-01T00:30:00Z',
      '2028-02-29T12:00:00Z',
      '2026-12-31T23:59:59Z',
    ];
    for (const timeZone of ['UTC', 'Europe/Paris', 'America/Los_Angeles', 'Pacific/Kiritimati', null]) {
      for (const instant of instants) {
        const now = new Date(instant);
        const [url] = firstScreenReads(settings, '/dashboard', '', timeZone, now);
        const search = new URL(url ?? '', 'http://localhost').searchParams;
        const range = resolveRange(DEFAULT_FILTERS, todayIn(timeZone ?? undefined, now));
        expect({ from: search.get('from'), to: search.get('to') }, `${timeZone} ${instant}`).toEqual(range);
      }
    }
  });

  it('are none for another screen or filtered figures', async () => {
    const settings = await builtSettings();
    expect(firstScreenReads(settings, '/bots', '', null, new Date())).toEqual([]);
    expect(firstScreenReads(settings, '/dashboard', '?range=7d', null, new Date())).toEqual([]);
  });

  it('are taken by the screens instead of asking again, with the same session only', async () => {
    const settings = await builtSettings();
    loginAs();
    const [figuresUrl = ''] = firstScreenReads(settings, '/dashboard', '', null, new Date());
    const answer = new Response(JSON.stringify({ success: true, results: figures }), {
      headers: { 'Content-Type': 'application/json' },
    });
    (globalThis as Record<string, unknown>)[EARLY_READS_GLOBAL] = {
      token: 'tok_test',
      at: Date.now(),
      reads: { [figuresUrl]: Promise.resolve(answer) },
    };
    const { requests } = mockFetch();
    renderApp('/dashboard');
    const net = await screen.findByRole('region', { name: 'Net PnL' }, { timeout: 8_000 });
    expect(net.textContent).toContain('+$42.50');
    expect(requests.filter((r) => r.url === figuresUrl)).toHaveLength(0);
  });

  it('are not taken when the session changed', async () => {
    const settings = await builtSettings();
    loginAs();
    const [figuresUrl = ''] = firstScreenReads(settings, '/dashboard', '', null, new Date());
    (globalThis as Record<string, unknown>)[EARLY_READS_GLOBAL] = {
      token: 'tok_someone_else',
      at: Date.now(),
      reads: {
        [figuresUrl]: Promise.resolve(new Response(JSON.stringify({ success: true, results: figures }))),
      },
    };
    const { requests } = mockFetch();
    renderApp('/dashboard');
    await expect.poll(() => requests.filter((r) => r.url === figuresUrl).length, { timeout: 8_000 }).toBe(1);
  });
});
