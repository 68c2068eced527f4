import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type RecordedRequest, mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';

const usd = { currency: 'USD', converted: false, rate: null, rateSource: null };

/** GET /portfolio as the server answers it. */
function portfolio(overrides: Record<string, unknown> = {}) {
  return {
    currency: usd,
    totalValue: '12500.00',
    available: '9800.00',
    holdings: [
      {
        asset: 'USDT',
        amount: '10000',
        value: '10000.00',
        share: '80.00',
        accounts: [{ accountId: 'acc-1', nickname: 'Paper main', sandbox: false, amount: '10000' }],
      },
      {
        asset: 'BTC',
        amount: '0.025',
        value: '2500.00',
        share: '20.00',
        accounts: [
          { accountId: 'acc-1', nickname: 'Paper main', sandbox: false, amount: '0.02' },
          { accountId: 'acc-2', nickname: 'Binance', sandbox: false, amount: '0.005' },
        ],
      },
    ],
    errors: [],
    ...overrides,
  };
}

function serve(body: unknown) {
  return mockFetch((request: RecordedRequest) => {
    if (request.path === '/portfolio') return { body: { success: true, results: body } };
    if (request.path === '/portfolio/history') {
      const period = new URL(request.url, 'http://localhost').searchParams.get('period');
      return { body: { success: true, results: { period, currency: usd, points: [] } } };
    }
    return undefined;
  });
}

const shown = () => screen.findByRole('table', { name: 'Holdings' }, { timeout: 5_000 });

describe('Portfolio', () => {
  it('lists holdings with amount, value and share, and the allocation', async () => {
    loginAs();
    serve(portfolio());
    renderApp('/portfolio');
    const table = await shown();
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows[1]).toContain('USDT');
    expect(rows[1]).toContain('10,000.00');
    expect(rows[1]).toContain('$10,000.00');
    expect(rows[1]).toContain('80.00%');
    expect(rows[2]).toContain('0.025');
    expect(rows[2]).toContain('Paper main, Binance');
    // Below 640 px a card an asset (issue 21): its amount, value, share and where it is held.
    const cards = within(screen.getByRole('list', { name: 'Holdings' })).getAllByRole('listitem');
    expect(cards[0]?.textContent).toMatch(/USDT.*80\.00%.*Amount.*10,000\.00.*Value.*\$10,000\.00/);
    expect(cards[1]?.textContent).toContain('Paper main, Binance');
    // One total, the dashboard's too (issue 21), with what is free to spend beside it.
    expect(screen.getByRole('region', { name: 'Total equity (est.)' }).textContent).toContain('$12,500.00');
    expect(screen.getByRole('region', { name: 'Available' }).textContent).toContain('$9,800.00');
    expect(screen.getByRole('img', { name: 'Allocation' })).toBeTruthy();
    // Live accounts only: no testnet mark.
    expect(screen.queryByText('Testnet')).toBeNull();
    expect(screen.queryByTestId('testnet-note')).toBeNull();
  });

  it('marks a testnet account “Testnet” beside its holdings, and says the total includes it', async () => {
    loginAs();
    serve(
      portfolio({
        holdings: [
          {
            asset: 'BTC',
            amount: '0.025',
            value: '2500.00',
            share: '100.00',
            accounts: [
              { accountId: 'acc-1', nickname: 'Paper main', sandbox: false, amount: '0.02' },
              { accountId: 'acc-2', nickname: 'Bybit practice', sandbox: true, amount: '0.005' },
            ],
          },
        ],
        errors: [{ accountId: 'acc-3', nickname: 'OKX demo', sandbox: true, message: 'Venue unreachable' }],
      }),
    );
    renderApp('/portfolio');
    const table = await shown();
    const btc = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(btc.textContent).toContain('Paper main, Bybit practice⚑Testnet');
    expect(within(btc).getAllByText('Testnet')).toHaveLength(1);
    expect(within(screen.getByRole('alert')).getByText('Testnet')).toBeTruthy();
    const note = screen.getByTestId('testnet-note');
    expect(note.textContent).toContain(
      'The total includes testnet accounts (Bybit practice, OKX demo): their balances are not real funds.',
    );
  });

  it('says which accounts could not be read, and shows the rest', async () => {
    loginAs();
    serve(
      portfolio({
        errors: [{ accountId: 'acc-3', nickname: 'Kraken', sandbox: false, message: 'Venue unreachable' }],
      }),
    );
    renderApp('/portfolio');
    await shown();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('One account could not be read');
    expect(alert.textContent).toContain('Kraken: Venue unreachable');
    // Each amount in its asset's usual decimals, with its unit (lib/money).
    const holdings = screen.getByRole('table', { name: 'Holdings' });
    expect(holdings.textContent).toContain('10,000.00 USDT');
    expect(holdings.textContent).toContain('0.02500000 BTC');
  });

  it('keeps the history period in the URL and asks the server for it', async () => {
    loginAs();
    const { requests } = serve(portfolio());
    const user = userEvent.setup();
    const app = renderApp('/portfolio');
    await shown();
    const periods = () =>
      requests
        .filter((request) => request.path === '/portfolio/history')
        .map((request) => new URL(request.url, 'http://localhost').searchParams.get('period'));
    await waitFor(() => expect(periods()).toEqual(['30d']));
    await user.click(screen.getByRole('button', { name: '7D' }));
    expect(app.location()).toBe('/portfolio?period=7d');
    await waitFor(() => expect(periods()).toEqual(['30d', '7d']));
    expect(screen.getByRole('button', { name: '7D' }).getAttribute('aria-pressed')).toBe('true');
    await screen.findByText('Balances are recorded every few minutes: the curve starts with the first one.');
  });

  it('prompts to connect an account when there is nothing', async () => {
    loginAs();
    serve(portfolio({ totalValue: '0.00', holdings: [] }));
    renderApp('/portfolio');
    await screen.findByText('Your portfolio is empty', undefined, { timeout: 5_000 });
    expect(screen.getByRole('link', { name: 'Connect an account' }).getAttribute('href')).toBe('/accounts');
  });
});
