import type { UserOrder } from '@kairos/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { changeLanguage } from '../../../i18n';
import { mockFetch, type RecordedRequest } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';
import { serverMarket, serverTradingAccount } from '../../../testing/server-answers';

function serverOrder(overrides: Partial<UserOrder> = {}): UserOrder {
  return {
    id: 'ord-1',
    tradeId: '7f5c2a10-0000-4000-8000-000000000001',
    tradeStatus: 'open',
    botId: null,
    botName: null,
    tradingAccountId: 'acc-1',
    accountName: 'Paper spot',
    sandbox: false,
    symbol: 'BTC/USDT',
    role: 'entry',
    side: 'buy',
    type: 'limit',
    price: '60000',
    amount: '0.002',
    filled: '0',
    filledPercent: '0',
    status: 'open',
    lastError: null,
    createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    updatedAt: new Date().toISOString(),
    cancellable: true,
    ...overrides,
  };
}

const FIVE_MINUTES = '5m';
const entry = serverOrder();
const takeProfit = serverOrder({
  id: 'ord-2',
  tradeId: '7f5c2a10-0000-4000-8000-000000000002',
  botId: 'bot-1',
  botName: 'Momentum',
  role: 'tp1',
  side: 'sell',
  price: '66000',
  amount: '0.01',
  filled: '0.0025',
  filledPercent: '25',
  status: 'partially_filled',
  cancellable: false,
});

function server(orders: () => UserOrder[], completed: { status: string } = { status: 'cancelled' }) {
  return mockFetch((request: RecordedRequest) => {
    if (request.path === '/api/trading-accounts')
      return { body: { success: true, results: [serverTradingAccount()] } };
    // The account's venue: BTC/USDT in steps of 0.0001 BTC, priced in ticks of 0.1 USDT.
    if (request.path === '/market/pairs') return { body: { success: true, results: [serverMarket()] } };
    if (request.path === '/api/orders') {
      const items = orders();
      return { body: { success: true, results: items, total: items.length, page: 1, pageSize: 50 } };
    }
    if (request.method === 'POST' && request.path.endsWith('/complete'))
      return {
        body: {
          success: true,
          results: {
            tradeId: entry.tradeId,
            completed: true,
            status: completed.status,
            closeReason: null,
            closedAt: null,
            exitPrice: null,
            pnl: null,
            pnlPercent: null,
            order: null,
          },
        },
      };
    return undefined;
  });
}

describe('Orders view', () => {
  it(
    'shows a pending limit entry as an order (price in quote to the tick, amount in base to the step, filled %, account, age) beside Trades',
    { timeout: 15_000 },
    async () => {
      loginAs();
      const requests = server(() => [entry, takeProfit]);
      renderApp('/trades/orders');
      const table = await screen.findByRole('table', { name: 'Your orders' }, { timeout: 5000 });
      const rows = within(table).getAllByRole('row');
      expect(rows).toHaveLength(3);
      const first = within(rows[1]!);
      expect(first.getByText('BTC/USDT')).toBeTruthy();
      expect(first.getByText(/Buy/)).toBeTruthy();
      expect(await first.findByText('60,000.0 USDT')).toBeTruthy();
      expect(first.getByText('0.0020 BTC')).toBeTruthy();
      expect(first.getByText('Paper spot')).toBeTruthy();
      expect(first.getByText('Manual')).toBeTruthy();
      expect(rows[1]!.textContent).toContain(FIVE_MINUTES);
      expect(first.getByRole('button', { name: 'Cancel the BTC/USDT order (Entry)' })).toBeTruthy();
      // A bot's take-profit is part of a position: no Cancel, a link to its trade.
      const second = within(rows[2]!);
      expect(second.getByText('Momentum')).toBeTruthy();
      expect(rows[2]!.textContent).toContain('25.00%');
      expect(second.queryByRole('button', { name: /Cancel/ })).toBeNull();
      expect(second.getByRole('link', { name: 'Open trade' }).getAttribute('href')).toBe(
        `/trade/${takeProfit.tradeId}`,
      );
      expect(rows[2]!.textContent).toContain('66,000.0 USDT');
      expect(rows[2]!.textContent).toContain('0.0100 BTC');
      expect(screen.getByRole('link', { name: 'Orders' }).getAttribute('aria-current')).toBe('page');
      expect(
        requests.requests
          .filter((r) => r.path === '/market/pairs')
          .map((r) => new URL(r.url, 'http://localhost').searchParams.get('accountId')),
      ).toEqual(['acc-1']);
      const call = requests.requests.find((r) => r.path === '/api/orders')!;
      expect(new URL(call.url, 'http://localhost').searchParams.get('scope')).toBe('open');
    },
  );

  it(
    'cancels after a confirmation, once for a double click, through the trade’s complete',
    { timeout: 15_000 },
    async () => {
      loginAs();
      let open = [entry];
      const requests = server(() => open);
      renderApp('/trades/orders');
      const user = userEvent.setup();
      const table = await screen.findByRole('table', { name: 'Your orders' }, { timeout: 5000 });
      await user.click(within(table).getByRole('button', { name: 'Cancel the BTC/USDT order (Entry)' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Cancel this order on BTC/USDT?' });
      expect(dialog.textContent).toContain(
        'The limit order to buy 0.0020 BTC at 60,000.0 USDT on Paper spot',
      );
      open = [];
      await user.dblClick(within(dialog).getByRole('button', { name: 'Cancel the order' }));
      expect(await screen.findByText('Order on BTC/USDT cancelled')).toBeTruthy();
      expect(requests.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
      expect(requests.requests.find((r) => r.method === 'POST')!.path).toBe(
        `/api/trades/${entry.tradeId}/complete`,
      );
      expect(await screen.findByText('No open orders')).toBeTruthy();
    },
  );
});

describe('Orders view: why an order is not as it was sent, in the user’s language (issue 21)', () => {
  const LABELS: Partial<Record<UserOrder['status'], string>> = { cancelled: 'Annulé', rejected: 'Refusé' };

  /** The orders list in French with one order ended so; the title its status badge says. */
  async function statusTitleInFrench(overrides: Partial<UserOrder> & Pick<UserOrder, 'status'>) {
    loginAs();
    server(() => [serverOrder({ cancellable: false, ...overrides })]);
    await changeLanguage('fr-FR');
    renderApp('/trades/orders');
    const table = await screen.findByRole('table', { name: 'Vos ordres' }, { timeout: 5000 });
    const row = within(within(table).getAllByRole('row')[1]!);
    return row.getByText(LABELS[overrides.status]!).closest('[title]')?.getAttribute('title');
  }

  it('says the server’s own sentence from its code', async () => {
    expect(
      await statusTitleInFrench({
        status: 'cancelled',
        lastError: 'The venue no longer knows this order',
        lastErrorCode: 'ORDER_FORGOTTEN',
        lastErrorParams: null,
      }),
    ).toBe('La plateforme ne connaît plus cet ordre');
  });

  it('says a refusal of the paper venue from its code and params, its figures written the French way', async () => {
    expect(
      await statusTitleInFrench({
        status: 'rejected',
        lastError: 'Insufficient margin: 12.5 USDT needed, 3 available',
        lastErrorCode: 'INSUFFICIENT_FUNDS',
        lastErrorParams: { variant: 'margin', asset: 'USDT', needed: '12.5', available: '3' },
      }),
    ).toBe('Marge insuffisante\u00a0: 12,5 USDT nécessaires, 3 disponibles');
  });

  it('shows an error written before errors had codes as the server wrote it', async () => {
    expect(await statusTitleInFrench({ status: 'rejected', lastError: 'Filter failure: NOTIONAL' })).toBe(
      'Filter failure: NOTIONAL',
    );
  });
});
