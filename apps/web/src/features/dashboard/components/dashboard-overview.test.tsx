import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { changeLanguage } from '../../../i18n';
import { type RecordedRequest, mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';
import { serverBot, serverMarket, serverTradingAccount } from '../../../testing/server-answers';
import { addDays, todayIn } from '../utils/dashboard-filters';

const today = todayIn();

/** GET /api/dashboard as the server answers it (amounts as decimal strings, in the user's currency). */
function dashboard(overrides: Record<string, unknown> = {}) {
  return {
    range: {
      from: `${addDays(today, -29)}T00:00:00.000Z`,
      to: `${addDays(today, 1)}T00:00:00.000Z`,
      timezone: 'UTC',
    },
    currency: { currency: 'USD', converted: false, rate: null, rateSource: null },
    metrics: { netPnl: '12.50', pnlPercent: '1.25', winRate: '66.67', closedTrades: 3 },
    equityCurve: { kind: 'equity', points: [] },
    dailyPnl: [],
    balanceByAccount: [
      { accountId: 'acc-1', nickname: 'Paper main', exchange: 'paper', sandbox: false, balance: '10012.50' },
      { accountId: 'acc-2', nickname: 'Binance', exchange: 'binance', sandbox: false, balance: '2500.00' },
    ],
    capitalByBot: [
      { botId: 'bot-1', nickname: 'BTC follower', sandbox: false, deployed: '1500.00', openTrades: 1 },
    ],
    protection: { unprotected: 0, venueStopRefused: 0 },
    ...overrides,
  };
}

const accounts = [
  serverTradingAccount({ id: 'acc-1', nickname: 'Paper main', exchange: 'paper' }),
  serverTradingAccount({ id: 'acc-2', nickname: 'Binance', exchange: 'binance' }),
];
const bots = [
  serverBot({ id: 'bot-1', nickname: 'BTC follower' }),
  serverBot({
    id: 'bot-2',
    nickname: 'ETH swing',
    tradingAccount: {
      id: 'acc-2',
      nickname: 'Binance',
      exchange: 'binance',
      usdtBalance: '2500',
      sandbox: false,
    },
  }),
];

function serve(
  answer: (request: RecordedRequest) => { status?: number; body: unknown } | undefined = () => undefined,
) {
  return mockFetch((request) => {
    const custom = answer(request);
    if (custom) return custom;
    if (request.path === '/api/dashboard') return { body: { success: true, results: dashboard() } };
    if (request.path === '/api/trading-accounts') return { body: { success: true, results: accounts } };
    if (request.path === '/api/bots') return { body: { success: true, results: bots } };
    return undefined;
  });
}

/** The query of each GET /api/dashboard, in order. */
function dashboardCalls(requests: RecordedRequest[]) {
  return requests
    .filter((request) => request.path === '/api/dashboard')
    .map((request) => Object.fromEntries(new URL(request.url, 'http://localhost').searchParams));
}

const metric = (name: string) => screen.getByRole('region', { name });
/** The first render waits for the route's lazy module. */
const dashboardShown = () => screen.findByRole('region', { name: 'Net PnL' }, { timeout: 5_000 });

describe('Dashboard', () => {
  it('shows the four metrics with sign, percent and count', async () => {
    loginAs();
    serve();
    renderApp('/dashboard');
    await dashboardShown();
    expect(metric('Net PnL').textContent).toContain('+$12.50');
    expect(metric('PnL %').textContent).toContain('+1.25%');
    expect(metric('Win rate').textContent).toContain('66.67%');
    expect(metric('Closed trades').textContent).toMatch(/^Closed trades3[A-Z]/);
    expect(screen.getByRole('img', { name: 'Balance by account' })).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Capital deployed by bot' }).textContent).toContain('$1,500.00');
    // Live accounts only: no testnet mark anywhere.
    expect(screen.queryByText('Testnet')).toBeNull();
    expect(screen.queryByTestId('testnet-note')).toBeNull();
  });

  it('lists an open position with its quantity in base to the step and its prices in quote', async () => {
    loginAs();
    serve((request) => {
      if (request.path === '/market/pairs') return { body: { success: true, results: [serverMarket()] } };
      const include = new URL(request.url, 'http://localhost').searchParams.get('include');
      if (request.path !== '/api/dashboard' || include !== 'openPositions') return undefined;
      const position = {
        tradeId: 't-1',
        botId: null,
        botNickname: null,
        accountId: 'acc-1',
        accountNickname: 'Paper main',
        sandbox: false,
        symbol: 'BTC/USDT',
        side: 'long',
        quantity: '0.05',
        entryPrice: '56794.59',
        openedAt: '2026-11-21T13:24:00.719Z',
        currentPrice: '57012.3456',
        unrealisedPnl: '10.89',
        unrealisedPnlPercent: '0.38',
        unrealisedPnlMarginPercent: null,
        estimatedClosePnl: '8.04',
      };
      return { body: { success: true, results: { openPositions: [position] } } };
    });
    renderApp('/dashboard');
    const table = await screen.findByRole('table', { name: 'Open positions' }, { timeout: 5_000 });
    await waitFor(() => expect(within(table).getAllByRole('row')[1]?.textContent).toContain('0.0500 BTC'));
    const row = within(table).getAllByRole('row')[1]!.textContent;
    expect(row).toContain('56,794.6 USDT');
    expect(row).toContain('57,012.3 USDT');
    expect(row).toContain('+10.89');
    // Phones get a card a position (side, size, price and PnL in view), opening the trade.
    const card = within(screen.getByRole('list', { name: 'Open positions' })).getByRole('link');
    expect(card.getAttribute('href')).toBe('/trade/t-1');
    expect(card.textContent).toMatch(
      /BTC\/USDT.*Long.*\+10\.89.*0\.0500 BTC.*57,012\.3 USDT.*Manual · Paper main/,
    );
  });

  it('marks a testnet account’s figures “Testnet”, and says when the totals include them', async () => {
    loginAs();
    const testnetAccounts = [
      accounts[0],
      serverTradingAccount({ id: 'acc-2', nickname: 'Binance', exchange: 'binance', sandbox: true }),
    ];
    serve((request) => {
      if (request.path === '/api/trading-accounts')
        return { body: { success: true, results: testnetAccounts } };
      if (request.path !== '/api/dashboard') return undefined;
      const answer = dashboard({
        balanceByAccount: [
          {
            accountId: 'acc-1',
            nickname: 'Paper main',
            exchange: 'paper',
            sandbox: false,
            balance: '10012.50',
          },
          { accountId: 'acc-2', nickname: 'Binance', exchange: 'binance', sandbox: true, balance: '2500.00' },
        ],
        capitalByBot: [
          { botId: 'bot-1', nickname: 'BTC follower', sandbox: false, deployed: '1500.00', openTrades: 1 },
          { botId: 'bot-2', nickname: 'ETH swing', sandbox: true, deployed: '300.00', openTrades: 1 },
        ],
      });
      return { body: { success: true, results: answer } };
    });
    const user = userEvent.setup();
    renderApp('/dashboard');
    await dashboardShown();
    const note = await screen.findByTestId('testnet-note');
    expect(within(note).getByText('Testnet')).toBeTruthy();
    expect(note.textContent).toContain(
      'These totals include testnet accounts (Binance): pick an account to see live figures only.',
    );

    const legendRow = (name: string) => screen.getByTitle(name).closest('li') as HTMLElement;
    expect(within(legendRow('Binance')).getByText('Testnet')).toBeTruthy();
    expect(within(legendRow('Paper main')).queryByText('Testnet')).toBeNull();
    const capital = within(screen.getByRole('list', { name: 'Capital deployed by bot' }));
    const barOf = (name: string) =>
      capital.getAllByRole('listitem').find((item) => item.textContent?.startsWith(name)) as HTMLElement;
    expect(within(barOf('ETH swing')).getAllByText('Testnet').length).toBeGreaterThan(0);
    expect(within(barOf('BTC follower')).queryByText('Testnet')).toBeNull();

    // One account picked: the note speaks of it alone, and only when it is a testnet.
    const filters = screen.getByRole('region', { name: 'Dashboard filters' });
    expect(
      within(within(filters).getByLabelText('Account'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All accounts', 'Paper main', 'Binance · Testnet']);
    await user.selectOptions(within(filters).getByLabelText('Account'), 'acc-2');
    await waitFor(() =>
      expect(screen.getByTestId('testnet-note').textContent).toContain(
        'These figures are a testnet account’s: not real funds.',
      ),
    );
    await user.selectOptions(within(filters).getByLabelText('Account'), 'acc-1');
    await waitFor(() => expect(screen.queryByTestId('testnet-note')).toBeNull());
  });

  it('asks for the last 30 days by default and keeps the filters in the URL', async () => {
    loginAs();
    const { requests } = serve();
    const user = userEvent.setup();
    const app = renderApp('/dashboard');
    await dashboardShown();
    expect(dashboardCalls(requests)[0]).toMatchObject({
      from: addDays(today, -29),
      to: today,
      topN: '8',
      include: 'equityCurve,dailyPnl,balanceByAccount,capitalByBot,metrics',
    });

    await user.click(screen.getByRole('button', { name: '7D' }));
    expect(app.location()).toBe('/dashboard?range=7d');
    await waitFor(() =>
      expect(dashboardCalls(requests).at(-1)).toMatchObject({ from: addDays(today, -6), to: today }),
    );
    expect(screen.getByRole('button', { name: '7D' }).getAttribute('aria-pressed')).toBe('true');

    const filters = screen.getByRole('region', { name: 'Dashboard filters' });
    await user.selectOptions(within(filters).getByLabelText('Account'), 'acc-2');
    expect(app.location()).toBe('/dashboard?range=7d&account=acc-2');
    // Only that account's bots are offered.
    const botSelect = within(filters).getByLabelText('Bot');
    await waitFor(() =>
      expect(
        within(botSelect)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['All bots', 'ETH swing']),
    );
    await user.selectOptions(botSelect, 'bot-2');
    expect(app.location()).toBe('/dashboard?range=7d&account=acc-2&bot=bot-2');
    await waitFor(() =>
      expect(dashboardCalls(requests).at(-1)).toMatchObject({ accountId: 'acc-2', botId: 'bot-2' }),
    );

    await user.click(within(filters).getByRole('button', { name: 'Reset filters' }));
    expect(app.location()).toBe('/dashboard');
  });

  it('turns a date typed in into a custom range', async () => {
    loginAs();
    const { requests } = serve();
    const app = renderApp('/dashboard?range=7d&bot=bot-1');
    await dashboardShown();
    const from = screen.getByLabelText('From') as HTMLInputElement;
    expect(from.value).toBe(addDays(today, -6));
    const start = addDays(today, -10);
    // Date inputs take a whole value at once, as the browser's picker sets it.
    fireEvent.change(from, { target: { value: start } });
    await waitFor(() => expect(app.location()).toBe(`/dashboard?from=${start}&to=${today}&bot=bot-1`));
    await waitFor(() => expect(dashboardCalls(requests).at(-1)).toMatchObject({ from: start, to: today }));
    expect(screen.getByRole('button', { name: '7D' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('opens on a filtered view from a link, as the URL says', async () => {
    loginAs();
    const { requests } = serve();
    renderApp('/dashboard?from=2026-01-01&to=2026-01-31&account=acc-1');
    await dashboardShown();
    expect(dashboardCalls(requests)[0]).toMatchObject({
      from: '2026-01-01',
      to: '2026-01-31',
      accountId: 'acc-1',
    });
    expect((screen.getByLabelText('Account') as HTMLSelectElement).value).toBe('acc-1');
  });

  it('prompts to connect an account and create a first bot when there is nothing yet', async () => {
    loginAs();
    serve((request) =>
      request.path === '/api/dashboard'
        ? {
            body: {
              success: true,
              results: dashboard({
                metrics: { netPnl: '0.00', pnlPercent: null, winRate: null, closedTrades: 0 },
                balanceByAccount: [],
                capitalByBot: [],
              }),
            },
          }
        : undefined,
    );
    renderApp('/dashboard');
    await screen.findByText('Nothing to show yet', undefined, { timeout: 5_000 });
    expect(screen.getByRole('link', { name: 'Connect an account' }).getAttribute('href')).toBe('/accounts');
    expect(screen.getByRole('link', { name: 'Create your first bot' }).getAttribute('href')).toBe('/bots');
  });

  /** The dashboard as the server sends it to a user who shows EUR: converted at the paper venue's rate. */
  const serveInEur = () =>
    serve((request) =>
      request.path === '/api/dashboard'
        ? {
            body: {
              success: true,
              results: dashboard({
                currency: {
                  currency: 'EUR',
                  converted: true,
                  rate: '0.92000000',
                  rateSource: 'EUR/USDT (paper venue)',
                },
              }),
            },
          }
        : undefined,
    );

  describe('open trades without protection', () => {
    const withProtection = (protection: { unprotected: number; venueStopRefused: number }) =>
      serve((request) =>
        request.path === '/api/dashboard'
          ? { body: { success: true, results: dashboard({ protection }) } }
          : undefined,
      );

    it('warns of open trades with no stop and of stops the exchange refused, with a link to the open trades', async () => {
      loginAs();
      withProtection({ unprotected: 2, venueStopRefused: 1 });
      renderApp('/dashboard');
      const banner = await screen.findByRole(
        'alert',
        { name: 'Open trades without a stop-loss' },
        { timeout: 5_000 },
      );
      expect(banner.textContent).toContain(
        '2 open trades hold positions with no stop-loss: nothing protects them.',
      );
      expect(banner.textContent).toContain(
        'The exchange refused the stop order of 1 open trade: only Kairos’s price watch protects it.',
      );
      const link = within(banner).getByRole('link', { name: /See open trades/ });
      expect(link.getAttribute('href')).toBe('/trading#open-trades');
    });

    it('warns only of the refused stops when every position has a stop', async () => {
      loginAs();
      withProtection({ unprotected: 0, venueStopRefused: 3 });
      renderApp('/dashboard');
      const banner = await screen.findByRole(
        'alert',
        { name: 'Stops refused by the exchange' },
        { timeout: 5_000 },
      );
      expect(banner.textContent).toContain('The exchange refused the stop orders of 3 open trades');
      expect(banner.textContent).not.toContain('no stop-loss');
    });

    it('says nothing when every open trade is protected', async () => {
      loginAs();
      serve();
      renderApp('/dashboard');
      await dashboardShown();
      expect(screen.queryByRole('alert')).toBeNull();
    });

    it('warns in French too', async () => {
      await changeLanguage('fr-FR');
      loginAs();
      withProtection({ unprotected: 1, venueStopRefused: 0 });
      renderApp('/dashboard');
      const banner = await screen.findByRole(
        'alert',
        { name: 'Trades ouverts sans stop-loss' },
        { timeout: 5_000 },
      );
      expect(banner.textContent).toContain(
        '1 trade ouvert détient une position sans stop-loss\u00a0: rien ne la protège.',
      );
      expect(within(banner).getByRole('link', { name: /Voir les trades ouverts/ })).toBeTruthy();
    });
  });

  it('says when amounts were converted to EUR, and at what rate', async () => {
    loginAs();
    serveInEur();
    renderApp('/dashboard');
    await dashboardShown();
    expect(metric('Net PnL').textContent).toContain('+€12.50');
    expect(screen.getByTestId('currency-conversion').textContent).toBe(
      'Amounts converted from USDT at 1 USDT = 0.92 EUR (EUR/USDT (paper venue)).',
    );
    expect(screen.getAllByText('≈ EUR').length).toBe(4);
  });

  it('names the rate source in French too', async () => {
    await changeLanguage('fr-FR');
    loginAs();
    serveInEur();
    renderApp('/dashboard');
    const note = await screen.findByTestId('currency-conversion', undefined, { timeout: 5_000 });
    expect(note.textContent).toContain('(EUR/USDT (plateforme simulée))');
    expect(note.textContent).not.toContain('paper venue');
  });

  it('offers to reset the filters when a filtered view fails', async () => {
    loginAs();
    serve((request) =>
      request.path === '/api/dashboard' && request.url.includes('accountId')
        ? {
            status: 404,
            body: {
              success: false,
              error: 'NOT_FOUND',
              message: 'Trading account not found',
              params: { variant: 'account' },
            },
          }
        : undefined,
    );
    const user = userEvent.setup();
    const app = renderApp('/dashboard?account=gone');
    await screen.findByText('Trading account not found', undefined, { timeout: 5_000 });
    await user.click(screen.getByRole('button', { name: 'Reset filters' }));
    expect(app.location()).toBe('/dashboard');
    await dashboardShown();
  });

  it('shows one “Total equity (est.)” with “Available” beside it, Portfolio’s own figures, and names the balance chart’s sum for what it is', async () => {
    const { requests } = serve((request) =>
      new URL(request.url, 'http://localhost').searchParams.get('include') === 'equity'
        ? {
            body: {
              success: true,
              results: {
                currency: { currency: 'USD', converted: false, rate: null, rateSource: null },
                equity: { total: '12600.00', available: '11100.00', unread: 1 },
              },
            },
          }
        : undefined,
    );
    loginAs();
    const app = renderApp('/dashboard');
    // Its place is kept (with placeholders) while the figures are read, then they fill it.
    const total = await screen.findByRole('region', { name: 'Total equity (est.)' }, { timeout: 5_000 });
    await waitFor(() => expect(total.textContent).toContain('$12,600.00'));
    expect(metric('Available').textContent).toContain('$11,100.00');
    expect(screen.getByText('1 account could not be read and is left out.')).toBeTruthy();
    // The balance chart adds the USDT each account holds: not a second "total".
    expect(screen.getByText('USDT held')).toBeTruthy();
    expect(screen.queryByText('Total')).toBeNull();

    // An account's own figures follow its filter; a bot has no balance of its own, so none.
    await app.router.navigate('/dashboard?account=acc-2');
    await waitFor(() =>
      expect(dashboardCalls(requests).some((q) => q.include === 'equity' && q.accountId === 'acc-2')).toBe(
        true,
      ),
    );
    await app.router.navigate('/dashboard?bot=bot-1');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Total equity (est.)' })).toBeNull());
    expect(dashboardCalls(requests).some((q) => q.include === 'equity' && q.botId)).toBe(false);
  });
});
