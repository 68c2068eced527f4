import type { TradeRow } from '@kairos/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, type RecordedRequest } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';
import { serverBot, serverMarket, serverTradingAccount } from '../../../testing/server-answers';
import { dayBound, filtersFromSearch } from './trades-list';

function serverTrade(overrides: Partial<TradeRow> = {}): TradeRow {
  return {
    id: '7f5c2a10-0000-4000-8000-000000000001',
    botId: 'bot-1',
    tradingAccountId: 'acc-1',
    symbol: 'BTC/USDT',
    side: 'long',
    status: 'closed',
    quantity: '0.05',
    entryPrice: '56794.59',
    exitPrice: '57362.53',
    pnl: '25.51',
    pnlPercent: '0.9',
    commission: '2.84',
    funding: '0',
    durationMs: 60_000,
    openedAt: '2026-11-21T13:24:00.719Z',
    closedAt: '2026-11-21T13:25:00.719Z',
    closeReason: 'take_profit',
    error: null,
    ...overrides,
  };
}

const botTrade = serverTrade();
const manualTrade = serverTrade({
  id: '7f5c2a10-0000-4000-8000-000000000002',
  botId: null,
  symbol: 'ETH/USDT:USDT',
  side: 'short',
  status: 'closed',
  quantity: '1.5',
  pnl: '-12.4',
  funding: '-0.75',
  closeReason: 'manual_close',
});

/** The server: a bot and an account, and GET /api/trades answering `page` of `total`. */
function server(trades: (request: RecordedRequest) => { items: TradeRow[]; total: number } | 'error') {
  return mockFetch((request) => {
    if (request.path === '/api/bots') return { body: { success: true, results: [serverBot()] } };
    if (request.path === '/api/trading-accounts' || request.path === '/api/accounts')
      return { body: { success: true, results: [serverTradingAccount()] } };
    if (request.path === '/market/pairs') return { body: { success: true, results: [serverMarket()] } };
    if (request.path === '/api/trades') {
      const answer = trades(request);
      if (answer === 'error')
        return { status: 500, body: { success: false, code: 'INTERNAL', message: 'Internal error' } };
      const query = new URL(request.url, 'http://localhost').searchParams;
      return {
        body: {
          success: true,
          results: answer.items,
          page: Number(query.get('page') ?? 1),
          pageSize: Number(query.get('pageSize') ?? 50),
          total: answer.total,
        },
      };
    }
    return undefined;
  });
}

const queryOf = (request: RecordedRequest) => new URL(request.url, 'http://localhost').searchParams;
const tradesCalls = (requests: RecordedRequest[]) => requests.filter((r) => r.path === '/api/trades');

describe('Trades screen', () => {
  it('lists bot and manual trades with their bot, status, figures and funding; a row opens the trade', async () => {
    loginAs();
    server(() => ({ items: [botTrade, manualTrade], total: 2 }));
    renderApp('/trades');
    const table = await screen.findByRole('table', { name: 'Your trades' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    const headers = within(rows[0]!)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual([
      'Opened',
      'Symbol',
      'Side',
      'Bot',
      'Status',
      'Quantity',
      'EntryExit',
      'PnL',
      'Funding',
    ]);
    // Quantities in their base asset (to the market's step when the venue lists it), prices in quote.
    await waitFor(() => expect(rows[1]!.textContent).toContain('0.0500 BTC'));
    expect(rows[1]!.textContent).toContain('56,794.6 USDT');
    expect(rows[1]!.textContent).toContain('57,362.5 USDT');
    expect(rows[2]!.textContent).toContain('1.5 ETH');
    expect(rows[1]!.textContent).toContain('BTC follower');
    expect(rows[1]!.textContent).toContain('+25.51');
    expect(rows[1]!.textContent).toContain('USDT');
    // A closed manual trade is here, with its funding.
    expect(rows[2]!.textContent).toContain('Manual');
    expect(rows[2]!.textContent).toContain('ETH/USDT:USDT');
    expect(rows[2]!.textContent).toContain('-12.40');
    expect(rows[2]!.textContent).toContain('-0.75');
    expect(within(rows[2]!).getByText('Closed')).toBeTruthy();
    expect(within(rows[2]!).getByRole('link').getAttribute('href')).toBe(`/trade/${manualTrade.id}`);
    // Phones get one card a trade, each a link to the trade.
    const cards = screen.getByRole('list', { name: 'Your trades' });
    expect(
      within(cards)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([`/trade/${botTrade.id}`, `/trade/${manualTrade.id}`]);

    await userEvent.click(within(rows[1]!).getByText('BTC/USDT'));
    await waitFor(() => expect(window.location.pathname).toBe(`/trade/${botTrade.id}`));
  });

  it('says a resting limit entry holds nothing yet ("—"), not a quantity of 0', async () => {
    loginAs();
    const pending = serverTrade({
      status: 'open',
      quantity: '0',
      entryPrice: null,
      exitPrice: null,
      pnl: null,
      pnlPercent: null,
      closedAt: null,
      closeReason: null,
      durationMs: null,
    });
    server(() => ({ items: [pending], total: 1 }));
    renderApp('/trades');
    const table = await screen.findByRole('table', { name: 'Your trades' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('Entry pending')).toBeTruthy();
    expect(row.textContent).not.toMatch(/0\.0+ BTC|^0 BTC/);
    expect(row.textContent).toContain('—');
  });

  it('hides the funding column when no trade of the page has any', async () => {
    loginAs();
    server(() => ({ items: [botTrade], total: 1 }));
    renderApp('/trades');
    const table = await screen.findByRole('table', { name: 'Your trades' });
    expect(within(table).queryByRole('columnheader', { name: 'Funding' })).toBeNull();
  });

  it('sends each filter to GET /api/trades, keeps them in the address and starts again at page 1', async () => {
    loginAs();
    const { requests } = server(() => ({ items: [botTrade], total: 120 }));
    renderApp('/trades');
    await screen.findByRole('table', { name: 'Your trades' });
    expect(queryOf(tradesCalls(requests).at(-1)!).get('page')).toBe('1');

    // The table's pager (the cards' own is the same one for phones).
    await userEvent.click(screen.getAllByRole('button', { name: /next/i })[0]!);
    await waitFor(() => expect(queryOf(tradesCalls(requests).at(-1)!).get('page')).toBe('2'));

    await userEvent.selectOptions(screen.getByLabelText('Status'), 'closed');
    await userEvent.selectOptions(screen.getByLabelText('Bot'), 'bot-1');
    await userEvent.selectOptions(screen.getByLabelText('Trading account'), 'acc-1');
    await userEvent.type(screen.getByLabelText('Symbol'), 'eth-usdt{Enter}');
    await userEvent.type(screen.getByLabelText('Opened from'), '2026-11-01');
    await waitFor(() => {
      const query = queryOf(tradesCalls(requests).at(-1)!);
      expect(query.get('status')).toBe('closed');
      expect(query.get('bot_id')).toBe('bot-1');
      expect(query.get('account_id')).toBe('acc-1');
      expect(query.get('symbol')).toBe('ETH/USDT');
      expect(query.get('from')).toBe(new Date('2026-11-01T00:00:00').toISOString());
      expect(query.get('page')).toBe('1');
    });
    expect(window.location.search).toContain('status=closed');

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => {
      const query = queryOf(tradesCalls(requests).at(-1)!);
      expect([...query.keys()].sort()).toEqual(['page', 'pageSize']);
    });
  });

  it('refuses a symbol that is no market before asking the server', async () => {
    loginAs();
    const { requests } = server(() => ({ items: [botTrade], total: 1 }));
    renderApp('/trades');
    await screen.findByRole('table', { name: 'Your trades' });
    await userEvent.type(screen.getByLabelText('Symbol'), 'bitcoin{Enter}');
    expect(await screen.findByText('Please choose a market such as BTC/USDT')).toBeTruthy();
    expect(tradesCalls(requests).every((request) => !queryOf(request).has('symbol'))).toBe(true);
  });

  it('says when there are no trades at all, and when none match the filters', async () => {
    loginAs();
    server(() => ({ items: [], total: 0 }));
    renderApp('/trades');
    expect(await screen.findByText('No trades yet')).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'error');
    expect(await screen.findByText('No trades match these filters')).toBeTruthy();
  });

  it('says when the trades cannot be read, with a retry', async () => {
    loginAs();
    let fail = true;
    server(() => (fail ? 'error' : { items: [botTrade], total: 1 }));
    renderApp('/trades');
    const retry = await screen.findByRole('button', { name: 'Try again' });
    fail = false;
    await userEvent.click(retry);
    expect(await screen.findByRole('table', { name: 'Your trades' })).toBeTruthy();
  });

  it('is in the main navigation', async () => {
    loginAs();
    server(() => ({ items: [], total: 0 }));
    renderApp('/dashboard');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Trades' }).getAttribute('href')).toBe('/trades');
  });
});

describe('filtersFromSearch', () => {
  it('reads only valid filters from the address', () => {
    expect(
      filtersFromSearch(new URLSearchParams('status=nope&symbol=bitcoin&page=-3&from=2026-13-45&bot=b')),
    ).toEqual({
      status: undefined,
      botId: 'b',
      accountId: undefined,
      symbol: undefined,
      from: undefined,
      to: undefined,
      page: 1,
      pageSize: 50,
    });
    expect(dayBound('2026-11-24', true)).toBe(new Date('2026-11-24T23:59:59.999').toISOString());
  });
});
