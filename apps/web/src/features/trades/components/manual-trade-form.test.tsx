import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../../i18n';
import { loginAs, renderApp } from '../../../testing/render';
import { serverTradingAccount } from '../../../testing/server-answers';

const SPOT = '0a000000-0000-4000-8000-000000000001';
const FUTURES = '0a000000-0000-4000-8000-000000000002';

function account(id: string, nickname: string, marketType: 'spot' | 'future') {
  return serverTradingAccount({ id, nickname, marketType });
}

interface Call {
  method: string;
  path: string;
  search: string;
  body: unknown;
}

/** The Trading screen's calls: accounts, pairs, ticker, order book, no candles, open trades. */
function serveTrading({
  accounts = [account(SPOT, 'Paper spot', 'spot'), account(FUTURES, 'Paper futures', 'future')],
  refusal,
}: { accounts?: ReturnType<typeof account>[]; refusal?: { status: number; body: unknown } } = {}) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const call: Call = {
        method: init.method ?? 'GET',
        path: url.pathname,
        search: url.search,
        body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      };
      calls.push(call);
      const ok = (results: unknown, extra: Record<string, unknown> = {}) =>
        new Response(JSON.stringify({ success: true, results, ...extra }), {
          status: call.method === 'POST' ? 201 : 200,
          headers: { 'Content-Type': 'application/json' },
        });
      if (call.path === '/api/trading-accounts') return ok(accounts);
      if (call.path === '/market/pairs')
        return ok([
          {
            symbol: 'BTC/USDT',
            base: 'BTC',
            quote: 'USDT',
            type: 'spot',
            amountStep: '0.00001',
            priceTick: '0.01',
            minAmount: '0.00001',
            minNotional: '5',
            active: true,
          },
          {
            symbol: 'ETH/USDT',
            base: 'ETH',
            quote: 'USDT',
            type: 'spot',
            amountStep: '0.0001',
            priceTick: '0.01',
            minAmount: '0.0001',
            minNotional: '5',
            active: true,
          },
        ]);
      if (call.path === '/market/BTC-USDT')
        return ok({
          symbol: 'BTC/USDT',
          last: '56789.11',
          bid: '56783.43',
          ask: '56794.79',
          high: '58873.54',
          low: '56516.1',
          open: '57237.39',
          changePercent: '-0.78',
          baseVolume: '752.901',
          quoteVolume: '1',
          timestamp: 1,
        });
      if (call.path === '/market/BTC-USDT/orderbook')
        return ok({
          symbol: 'BTC/USDT',
          bids: [
            ['56783.36', '0.8'],
            ['56772', '1.7'],
          ],
          asks: [
            ['56794.72', '1.1'],
            ['56806.08', '1.6'],
          ],
          timestamp: 1,
        });
      if (call.path === '/api/trades' && call.method === 'GET')
        return ok(
          [
            {
              id: 'trade-9',
              botId: null,
              tradingAccountId: SPOT,
              symbol: 'ETH/USDT',
              side: 'long',
              status: 'open',
              quantity: '1.5',
              entryPrice: '3012.4',
              exitPrice: null,
              pnl: null,
              pnlPercent: null,
              commission: '4.5',
              durationMs: null,
              openedAt: '2026-11-21T10:00:00.000Z',
              closedAt: null,
              closeReason: null,
              error: null,
            },
          ],
          { total: 1, page: 1, pageSize: 50 },
        );
      if (call.path === '/api/trades' && call.method === 'POST' && refusal)
        return new Response(JSON.stringify(refusal.body), {
          status: refusal.status,
          headers: { 'Content-Type': 'application/json' },
        });
      if (call.path === '/api/trades' && call.method === 'POST') {
        const body = call.body as { symbol: string; side: string; amount: string; price?: string };
        // A limit entry rests: nothing held yet, its order waits at the price.
        const resting = Boolean(body.price);
        return ok({
          trade: {
            id: 'trade-new',
            symbol: body.symbol,
            side: body.side,
            quantity: resting ? '0' : body.amount,
            entryPrice: resting ? null : '56789.11',
            status: 'open',
          },
          ladder: [],
          orders: resting ? [{ role: 'entry', amount: body.amount, price: body.price }] : [],
          fills: [],
          timeline: [],
        });
      }
      return ok([]);
    }),
  );
  return {
    calls,
    posts: () => calls.filter((call) => call.method === 'POST' && call.path === '/api/trades'),
  };
}

async function openForm() {
  const form = await screen.findByRole('form', { name: 'Manual trade' }, { timeout: 5000 });
  return { form, user: userEvent.setup() };
}

// Typing is checked on every key now (issue 21): the long typing journeys get room on a loaded machine.
describe('Trading: manual trade form', { timeout: 15_000 }, () => {
  it('refuses an amount and a price that are not positive numbers (spec §5)', async () => {
    const server = serveTrading();
    loginAs();
    renderApp('/trading');
    const { form, user } = await openForm();
    await user.type(within(form).getByLabelText('Amount'), 'abc');
    await user.type(within(form).getByLabelText('Limit price'), '-5');
    await user.click(within(form).getByRole('button', { name: /Buy BTC/ }));
    expect(await within(form).findByText('Please enter a valid amount')).toBeTruthy();
    expect(within(form).getByText('Please enter a valid price')).toBeTruthy();

    await user.clear(within(form).getByLabelText('Amount'));
    await user.type(within(form).getByLabelText('Amount'), '0');
    await user.clear(within(form).getByLabelText('Limit price'));
    await user.type(within(form).getByLabelText('Limit price'), '1.2.3');
    await user.click(within(form).getByRole('button', { name: /Buy BTC/ }));
    await waitFor(() => expect(within(form).getByText('Please enter a valid price')).toBeTruthy());
    expect(within(form).getByText('Please enter a valid amount')).toBeTruthy();
    expect(server.posts()).toHaveLength(0);
  });

  it('says it in French', async () => {
    serveTrading();
    await changeLanguage('fr-FR');
    loginAs();
    renderApp('/trading');
    const form = await screen.findByRole('form', { name: 'Trade manuel' }, { timeout: 5000 });
    const user = userEvent.setup();
    await user.type(within(form).getByLabelText('Quantité'), '-1');
    await user.type(within(form).getByLabelText('Prix limite'), 'x');
    await user.click(within(form).getByRole('button', { name: /Acheter BTC/ }));
    expect(await within(form).findByText('Veuillez saisir un montant valide')).toBeTruthy();
    expect(within(form).getByText('Veuillez saisir un prix valide')).toBeTruthy();
    // The chart's time frames as French writes them: "1 j", not "1d".
    const frames = screen.getByRole('radiogroup', { name: 'Unité de temps' });
    expect(
      within(frames)
        .getAllByRole('radio')
        .map((frame) => frame.textContent),
    ).toEqual(['5\u00a0min', '15\u00a0min', '1\u00a0h', '4\u00a0h', '1\u00a0j']);
  });

  it('opens a market trade with a take-profit ladder and a stop-loss', async () => {
    const server = serveTrading();
    loginAs();
    renderApp('/trading');
    const { form, user } = await openForm();
    await user.type(within(form).getByLabelText('Amount'), '0,05');
    expect(within(form).getByText(/≈ 2,839\.46 USDT · market order/)).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Add a level' }));
    await user.click(within(form).getByRole('button', { name: 'Add a level' }));
    await user.clear(within(form).getByLabelText('Share of the position for TP1'));
    await user.type(within(form).getByLabelText('Share of the position for TP1'), '60');
    await user.type(within(form).getByLabelText('Distance of TP2 from the entry'), '2.5');
    await user.type(within(form).getByLabelText('Share of the position for TP2'), '50');
    await user.click(within(form).getByRole('button', { name: /Buy BTC/ }));
    expect(await within(form).findByText('Take-profit sizes add up to more than 100%')).toBeTruthy();

    await user.clear(within(form).getByLabelText('Share of the position for TP2'));
    await user.type(within(form).getByLabelText('Share of the position for TP2'), '40');
    await user.type(within(form).getByLabelText('Stop-loss (optional)'), '3');
    await user.click(within(form).getByRole('button', { name: /Buy BTC/ }));
    expect(await screen.findByText('Long 0.05000 BTC/USDT opened')).toBeTruthy();
    expect(server.posts()[0]?.body).toEqual({
      accountId: SPOT,
      symbol: 'BTC/USDT',
      side: 'long',
      amount: '0.05',
      takeProfits: [
        { role: 'tp1', percent: '1', sizePercent: '60' },
        { role: 'tp2', percent: '2.5', sizePercent: '40' },
      ],
      stopLossPercent: '3',
      breakEvenAfterTp1: true,
    });
  });

  it('offers short only on a futures account, and a limit price from the order book', async () => {
    const server = serveTrading();
    loginAs();
    renderApp('/trading');
    const { form, user } = await openForm();
    expect((within(form).getByRole('radio', { name: /Short/ }) as HTMLInputElement).disabled).toBe(true);
    await user.selectOptions(within(form).getByLabelText('Trading account'), FUTURES);
    expect((within(form).getByRole('radio', { name: /Short/ }) as HTMLInputElement).disabled).toBe(false);
    await user.click(within(form).getByRole('radio', { name: /Short/ }));
    await user.click(await screen.findByRole('button', { name: 'Use 56,794.72 as the limit price' }));
    // The book's amounts to the market's step (0.00001 BTC), its total too.
    const asks = screen.getByRole('table', { name: 'Asks (sell orders)' });
    expect(within(asks).getAllByRole('row').at(-1)?.textContent).toMatch(/56,794\.721\.10000.*1\.10000/);
    expect((within(form).getByLabelText('Limit price') as HTMLInputElement).value).toBe('56794.72');
    await user.type(within(form).getByLabelText('Amount'), '0.01');
    await user.click(within(form).getByRole('button', { name: /Sell BTC/ }));
    await waitFor(() => expect(server.posts()).toHaveLength(1));
    expect(server.posts()[0]?.body).toMatchObject({
      accountId: FUTURES,
      side: 'short',
      amount: '0.01',
      price: '56794.72',
    });
    // Market data follows the venue of the chosen account.
    expect(server.calls.some((call) => call.path === '/market/pairs' && call.search.includes(FUTURES))).toBe(
      true,
    );
  });

  it('lists open trades, each linking to its TradeDetail', async () => {
    serveTrading();
    loginAs();
    renderApp('/trading');
    const table = await screen.findByRole('table', { name: 'Open trades' }, { timeout: 5000 });
    const link = await within(table).findByRole('link', { name: 'ETH/USDT' });
    expect(link.getAttribute('href')).toBe('/trade/trade-9');
    expect(within(table).getByText(/Manual · Paper spot/)).toBeTruthy();
    expect(within(table).queryByText('Testnet')).toBeNull();
  });

  it('scrolls to the open trades when a link asks for them (the dashboard’s warning)', async () => {
    serveTrading();
    const scrolled: Element[] = [];
    vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    loginAs();
    renderApp('/trading#open-trades');
    const table = await screen.findByRole('table', { name: 'Open trades' }, { timeout: 5000 });
    await within(table).findByRole('link', { name: 'ETH/USDT' });
    await waitFor(() => expect(scrolled.map((element) => element.id)).toContain('open-trades'));
  });

  it('marks an open trade on a testnet account “Testnet”', async () => {
    serveTrading({
      accounts: [
        serverTradingAccount({ id: SPOT, nickname: 'Bybit practice', exchange: 'bybit', sandbox: true }),
      ],
    });
    loginAs();
    renderApp('/trading');
    const table = await screen.findByRole('table', { name: 'Open trades' }, { timeout: 5000 });
    const row = (await within(table).findByRole('link', { name: 'ETH/USDT' })).closest('tr') as HTMLElement;
    await waitFor(() => expect(within(row).getByText(/Manual · Bybit practice/)).toBeTruthy());
    expect(within(row).getByText('Testnet')).toBeTruthy();
    // And in the account picker of the order form.
    const form = await screen.findByRole('form', { name: 'Manual trade' });
    expect(
      within(within(form).getByLabelText('Trading account'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toContain('Bybit practice · spot · Testnet');
  });

  it('asks for an account first when there is none', async () => {
    serveTrading({ accounts: [] });
    loginAs();
    renderApp('/trading');
    expect(await screen.findByText('No trading account yet', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Connect an account' }).getAttribute('href')).toBe('/accounts');
  });

  it('shows the available balance and fills the amount from a share of it, with the total in USDT', async () => {
    serveTrading();
    loginAs();
    renderApp('/trading');
    const { form, user } = await openForm();
    expect(await within(form).findByText('Available 10,000.00 USDT')).toBeTruthy();
    const shares = within(form).getByRole('group', { name: 'Share of the available balance' });
    expect(
      within(shares)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['25%', '50%', '75%', '100%']);
    // 2,500 USDT at the last price 56,789.11, rounded down to the market's step of 0.00001 BTC.
    await user.click(within(shares).getByRole('button', { name: 'Use 25% of the available balance' }));
    expect((within(form).getByLabelText('Amount') as HTMLInputElement).value).toBe('0.04402');
    expect(within(form).getByText('Total ≈ 2,499.86 USDT · market order')).toBeTruthy();
    // A limit price is what the share is counted at.
    await user.type(within(form).getByLabelText('Limit price'), '50,000');
    await user.click(within(shares).getByRole('button', { name: 'Use 100% of the available balance' }));
    expect((within(form).getByLabelText('Amount') as HTMLInputElement).value).toBe('0.20000');
    expect(within(form).getByText('Total ≈ 10,000.00 USDT · limit order')).toBeTruthy();
  });

  it('reads numbers as English writes them: "1,000" is a thousand', async () => {
    const server = serveTrading();
    loginAs();
    renderApp('/trading');
    const { form, user } = await openForm();
    await user.type(within(form).getByLabelText('Amount'), '0.5');
    await user.type(within(form).getByLabelText('Limit price'), '1,000.5');
    expect(within(form).getByText('Total ≈ 500.25 USDT · limit order')).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: /Buy BTC/ }));
    await waitFor(() => expect(server.posts()).toHaveLength(1));
    expect(server.posts()[0]?.body).toMatchObject({ amount: '0.5', price: '1000.5' });
    // A resting limit entry is said as an order placed, not "Long 0 BTC".
    expect(await screen.findByText('Limit order to buy 0.50000 BTC at 1,000.50 USDT placed')).toBeTruthy();
  });

  it('reads numbers as French writes them: "1 000,5" is a thousand and a half', async () => {
    const server = serveTrading();
    await changeLanguage('fr-FR');
    loginAs();
    renderApp('/trading');
    const form = await screen.findByRole('form', { name: 'Trade manuel' }, { timeout: 5000 });
    const user = userEvent.setup();
    await user.type(within(form).getByLabelText('Quantité'), '0,5');
    await user.type(within(form).getByLabelText('Prix limite'), '1 000,5');
    expect(within(form).getByText(/Total ≈ 500,25\sUSDT/)).toBeTruthy();
    expect(within(form).getByText(/Disponible : 10\s000,00\sUSDT/)).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: /Acheter BTC/ }));
    await waitFor(() => expect(server.posts()).toHaveLength(1));
    expect(server.posts()[0]?.body).toMatchObject({ amount: '0.5', price: '1000.5' });
  });

  it('checks as the amount is typed, and a refusal goes once the order changes', async () => {
    const server = serveTrading({
      refusal: {
        status: 422,
        body: {
          success: false,
          error: 'ORDER_TOO_SMALL',
          message: 'Order value 0.57 is below the minimum notional 5',
          params: { variant: 'belowMinNotional', value: '0.57', min: '5' },
        },
      },
    });
    loginAs();
    renderApp('/trading');
    const { form, user } = await openForm();
    const amount = within(form).getByLabelText('Amount');
    // Live: no submit needed to hear that "abc" is no amount, and the message goes as soon as it is one.
    await user.type(amount, 'abc');
    expect(await within(form).findByText('Please enter a valid amount')).toBeTruthy();
    await user.clear(amount);
    await user.type(amount, '0.00001');
    await waitFor(() => expect(within(form).queryByText('Please enter a valid amount')).toBeNull());

    await user.click(within(form).getByRole('button', { name: /Buy BTC/ }));
    await waitFor(() => expect(server.posts()).toHaveLength(1));
    const refusal = await within(form).findByText(/below the minimum notional/);
    expect(refusal).toBeTruthy();
    await user.type(amount, '0');
    await waitFor(() => expect(within(form).queryByText(/below the minimum notional/)).toBeNull());
  });
});
