import type { TradeDetail } from '@kairos/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../../i18n';
import { loginAs, renderApp } from '../../../testing/render';
import { serverMarket, serverTradingAccount, serverVenue } from '../../../testing/server-answers';

const TRADE_ID = '7f5c2a10-0000-4000-8000-000000000001';

/** A trade as GET /api/trades/{id} sends it: long 0.05 BTC, TP1 and TP2 resting, TP1 pushable. */
function serverTrade(overrides: Partial<TradeDetail['trade']> = {}): TradeDetail {
  return {
    trade: {
      id: TRADE_ID,
      botId: null,
      tradingAccountId: 'acc-1',
      symbol: 'BTC/USDT',
      side: 'long',
      status: 'open',
      quantity: '0.05',
      entryPrice: '56794.59',
      exitPrice: null,
      pnl: null,
      pnlPercent: null,
      commission: '2.8397295',
      funding: '0',
      durationMs: null,
      openedAt: '2026-11-21T13:24:00.719Z',
      closedAt: null,
      closeReason: null,
      error: null,
      strategyId: null,
      alertId: null,
      takeProfits: [
        { role: 'tp1', percent: '1', sizePercent: '50' },
        { role: 'tp2', percent: '2', sizePercent: '50' },
      ],
      stopLossPercent: '3',
      stopLossPrice: '55090.76',
      breakEvenAfterTp1: true,
      stopMovedToBreakEven: false,
      openQuantity: '0.05',
      ...overrides,
    },
    protection: {
      where: 'kairos',
      venueOrderId: null,
      triggerPrice: '55090.76',
      since: null,
      venueRefused: false,
    },
    ladder: [
      {
        role: 'tp1',
        name: 'TP1',
        percent: '1',
        sizePercent: '50',
        status: 'placed',
        price: '57362.53',
        amount: '0.025',
        filled: '0',
        orderId: 'venue-tp1',
        clientOrderId: 'k1',
        pushed: false,
        pushable: true,
      },
      {
        role: 'tp2',
        name: 'TP2',
        percent: '2',
        sizePercent: '50',
        status: 'placed',
        price: '57930.48',
        amount: '0.025',
        filled: '0',
        orderId: 'venue-tp2',
        clientOrderId: 'k2',
        pushed: false,
        pushable: false,
      },
    ],
    orders: [
      {
        id: 'o-entry',
        role: 'entry',
        clientOrderId: 'k0',
        venueOrderId: 'venue-entry',
        side: 'buy',
        type: 'market',
        reduceOnly: false,
        price: null,
        amount: '0.05',
        filled: '0.05',
        average: '56794.59',
        status: 'filled',
        lastError: null,
        createdAt: '2026-11-21T13:24:00.719Z',
        updatedAt: '2026-11-21T13:24:00.828Z',
      },
    ],
    fills: [
      {
        id: 'f-1',
        orderId: 'o-entry',
        role: 'entry',
        side: 'buy',
        venueTradeId: 'vt-1',
        price: '56794.59',
        amount: '0.05',
        fee: '2.8397295',
        feeCurrency: 'USDT',
        at: '2026-11-21T13:24:00.757Z',
      },
    ],
    timeline: [
      {
        at: '2026-11-21T13:24:00.719Z',
        kind: 'order',
        role: 'entry',
        side: 'buy',
        orderId: 'o-entry',
        status: 'filled',
        price: '56794.59',
        amount: '0.05',
      },
      {
        at: '2026-11-21T13:24:00.757Z',
        kind: 'fill',
        role: 'entry',
        side: 'buy',
        orderId: 'o-entry',
        status: 'filled',
        price: '56794.59',
        amount: '0.05',
      },
    ],
  };
}

interface Call {
  method: string;
  path: string;
  body: unknown;
}
type Reply = { status?: number; body?: unknown } | 'network-error' | undefined;

function serve(handler: (call: Call) => Reply) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const call: Call = {
        method: init.method ?? 'GET',
        path: new URL(String(input), 'http://localhost').pathname,
        body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      };
      calls.push(call);
      const reply = handler(call) ?? { body: { success: true, results: [] } };
      if (reply === 'network-error') throw new TypeError('Failed to fetch');
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status ?? 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return { calls, pushes: () => calls.filter((call) => call.path === '/push-to-take-profit') };
}

/** The trade, then whatever the push answers. */
function serveTrade(push: Reply, detail = serverTrade()) {
  return serve((call) => {
    if (call.method === 'GET' && call.path === `/api/trades/${TRADE_ID}`)
      return { body: { success: true, results: detail } };
    if (call.method === 'GET' && call.path === '/api/trading-accounts')
      return {
        body: { success: true, results: [serverTradingAccount()] },
      };
    if (call.method === 'PUT' && call.path === '/push-to-take-profit') return push;
    return undefined;
  });
}

async function pushTp1() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Push to market (TP1)' }));
  const dialog = await screen.findByRole('alertdialog', { name: 'Push TP1 to market?' });
  await user.click(within(dialog).getByRole('button', { name: 'Push to market' }));
}

describe('TradeDetail', () => {
  it('shows the trade, its ladder with each level’s status and its orders and fills', async () => {
    serveTrade(undefined);
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: /BTC\/USDT/ }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByText('Manual trade')).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Paper main' })).toBeTruthy();
    expect(screen.queryByText('Testnet')).toBeNull();
    expect(screen.getByText('Entry price').parentElement?.textContent).toContain('56,794.59 USDT');
    expect(screen.getByText('Stop-loss').parentElement?.textContent).toContain('55,090.76 USDT');
    expect(screen.getByText('Quantity').parentElement?.textContent).toContain('0.05 BTC');

    const ladder = screen.getByRole('table', { name: 'Take-profit ladder' });
    const rows = within(ladder).getAllByRole('row');
    expect(rows[1]?.textContent).toMatch(/TP1.*1\.00%.*50\.00%.*57,362\.53.*Placed.*Push to market/);
    // Only the lowest level not filled can be pushed: TP2 says what it waits for.
    expect(rows[2]?.textContent).toContain('Waiting for TP1 to be filled first');
    expect(within(rows[2]!).queryByRole('button')).toBeNull();

    const timeline = screen.getByRole('table', { name: 'Orders and fills' });
    expect(within(timeline).getByText('Market order')).toBeTruthy();
    expect(within(timeline).getByText('Fill')).toBeTruthy();
    // Below 640 px each is a card (issue 21): what, for what, the side, price and amount with their units.
    const cards = within(screen.getByRole('list', { name: 'Orders and fills' })).getAllByRole('listitem');
    expect(cards[0]?.textContent).toMatch(/Market order.*Entry.*Buy.*Filled.*Price \(USDT\).*Amount \(BTC\)/);
    expect(cards.find((card) => card.textContent?.startsWith('Fill'))?.textContent).toContain('Fee');
  });

  it('writes quantities to the market’s step and prices to its tick, in the figures, the ladder and the timeline', async () => {
    serve((call) => {
      if (call.path === `/api/trades/${TRADE_ID}`) return { body: { success: true, results: serverTrade() } };
      if (call.path === '/market/pairs')
        return {
          body: { success: true, results: [serverMarket({ amountStep: '0.001', priceTick: '0.1' })] },
        };
      return undefined;
    });
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    await waitFor(
      () => expect(screen.getByText('Quantity').parentElement?.textContent).toContain('0.050 BTC'),
      { timeout: 5000 },
    );
    expect(screen.getByText('Entry price').parentElement?.textContent).toContain('56,794.6 USDT');
    const ladder = within(screen.getByRole('table', { name: 'Take-profit ladder' })).getAllByRole('row');
    expect(ladder[0]?.textContent).toContain('Price (USDT)');
    expect(ladder[1]?.textContent).toMatch(/57,362\.5.*0\.025.*0\.000/);
    const timeline = within(screen.getByRole('table', { name: 'Orders and fills' })).getAllByRole('row');
    expect(timeline[0]?.textContent).toContain('Amount (BTC)');
    expect(timeline[1]?.textContent).toContain('0.050');
  });

  it("shows a closed futures trade's PnL % on margin beside the one on notional", async () => {
    const closed = serverTrade({
      status: 'closed',
      pnl: '12.5',
      pnlPercent: '0.44',
      pnlMarginPercent: '2.2',
      leveragePercent: '500',
      closedAt: '2026-11-21T14:00:00.000Z',
    });
    serveTrade(undefined, closed);
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    await screen.findByRole('heading', { level: 1, name: /BTC\/USDT/ }, { timeout: 5000 });
    const figure = screen.getByText('PnL %').parentElement!.parentElement!;
    expect(figure.textContent).toContain('on margin (5×)');
    expect(figure.textContent).toContain('2.20%');
  });

  it('marks a trade on a testnet account “Testnet”, in its title and beside its account', async () => {
    serve((call) => {
      if (call.method === 'GET' && call.path === `/api/trades/${TRADE_ID}`)
        return { body: { success: true, results: serverTrade() } };
      if (call.method === 'GET' && call.path === '/api/trading-accounts') {
        const practice = serverTradingAccount({ nickname: 'OKX demo', exchange: 'okx', sandbox: true });
        return { body: { success: true, results: [practice] } };
      }
      return undefined;
    });
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    const title = await screen.findByRole('heading', { level: 1, name: /BTC\/USDT/ }, { timeout: 5000 });
    await waitFor(() => expect(within(title).getByText('Testnet')).toBeTruthy());
    const account = await screen.findByRole('link', { name: 'OKX demo' });
    expect(account.nextElementSibling?.textContent).toContain('Testnet');
  });

  describe('where the stop lives', () => {
    /** The trade on a Binance account, with the venue list that names it. */
    function serveOnBinance(detail: TradeDetail) {
      serve((call) => {
        if (call.method === 'GET' && call.path === `/api/trades/${TRADE_ID}`)
          return { body: { success: true, results: detail } };
        if (call.method === 'GET' && call.path === '/api/trading-accounts')
          return {
            body: {
              success: true,
              results: [serverTradingAccount({ nickname: 'Binance main', exchange: 'binance' })],
            },
          };
        if (call.method === 'GET' && call.path === '/market/exchanges')
          return { body: { success: true, results: [serverVenue()] } };
        return undefined;
      });
    }
    const stopFigure = async () =>
      (await screen.findByText('Stop-loss', {}, { timeout: 5000 })).closest('div')!;
    const venueStop = {
      where: 'venue' as const,
      venueOrderId: '12345',
      triggerPrice: '55090.76',
      since: '2026-11-21T13:24:01.000Z',
      venueRefused: false,
    };

    it('says the stop rests on the exchange, by its name, with the order', async () => {
      serveOnBinance({ ...serverTrade(), protection: venueStop });
      loginAs();
      renderApp(`/trade/${TRADE_ID}`);
      const figure = await stopFigure();
      await waitFor(() => expect(within(figure).getByText('Stop on Binance')).toBeTruthy());
      expect(within(figure).getByTestId('stop-protection').textContent).toMatch(
        /Stop on Binance\s*·\s*order 12345/,
      );
      expect(figure.textContent).toContain('55,090.76 USDT');
    });

    it('says Kairos watches the stop, and why when the exchange refused it', async () => {
      serveOnBinance({
        ...serverTrade(),
        protection: { ...venueStop, where: 'kairos', venueOrderId: null, since: null, venueRefused: true },
      });
      loginAs();
      renderApp(`/trade/${TRADE_ID}`);
      const figure = await stopFigure();
      expect(await within(figure).findByText('Stop watched by Kairos')).toBeTruthy();
      await waitFor(() => expect(within(figure).getByText('Binance refused the stop order')).toBeTruthy());
    });

    it('marks a position with no stop in danger', async () => {
      serveTrade(undefined, {
        ...serverTrade({ stopLossPercent: null, stopLossPrice: null }),
        protection: {
          where: 'none',
          venueOrderId: null,
          triggerPrice: null,
          since: null,
          venueRefused: false,
        },
      });
      loginAs();
      renderApp(`/trade/${TRADE_ID}`);
      const figure = await stopFigure();
      const badge = await within(figure).findByText('No stop');
      expect(badge.closest('span')?.className).toContain('text-loss');
      expect(within(figure).getByText('Nothing protects this position')).toBeTruthy();
    });

    it('says nothing of a stop once the trade has ended', async () => {
      serveTrade(undefined, {
        ...serverTrade({ status: 'closed', closedAt: '2026-11-21T15:00:00.000Z', openQuantity: '0' }),
        protection: null,
      });
      loginAs();
      renderApp(`/trade/${TRADE_ID}`);
      await stopFigure();
      expect(screen.queryByTestId('stop-protection')).toBeNull();
    });

    it('speaks French', async () => {
      serveOnBinance({ ...serverTrade(), protection: venueStop });
      await changeLanguage('fr-FR');
      loginAs();
      renderApp(`/trade/${TRADE_ID}`);
      const figure = (await screen.findByText('Stop-loss', {}, { timeout: 5000 })).closest('div')!;
      await waitFor(() => expect(within(figure).getByText('Stop sur Binance')).toBeTruthy());
      expect(within(figure).getByText('ordre 12345')).toBeTruthy();
    });
  });

  it('asks first, warning that the limit order is cancelled and a market order created', async () => {
    const server = serveTrade(undefined);
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Push to market (TP1)' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Push TP1 to market?' });
    expect(dialog.textContent).toContain(
      'The current TP1 limit order at 57,362.53 USDT is cancelled and a market order is created for 0.025 BTC',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(server.pushes()).toHaveLength(0);
  });

  it('pushes TP1 and shows the order id of the market order', async () => {
    const server = serveTrade({
      body: {
        success: true,
        results: {
          tradeId: TRADE_ID,
          takeProfitRole: 'tp1',
          name: 'TP1',
          test: false,
          orderId: 'f5c71b04d159',
          clientOrderId: 'k9',
          status: 'filled',
          amount: '0.025',
          filled: '0.025',
          average: '56783.7',
        },
        message: 'Successfully pushed TP1 to market! Order ID: f5c71b04d159',
      },
    });
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    await pushTp1();
    expect((await screen.findByTestId('push-result')).textContent).toBe(
      'Successfully pushed TP1 to market! Order ID: f5c71b04d159',
    );
    expect(server.pushes()[0]?.body).toEqual({
      tradeId: TRADE_ID,
      takeProfitRole: 'tp1',
      botId: null,
      userId: 'u_1',
      test: false,
    });
  });

  it.each([
    [
      'the level below is not filled',
      {
        status: 422,
        body: {
          success: false,
          error: 'TAKE_PROFIT_NOT_PUSHABLE',
          message: 'Waiting for TP1 to be filled first',
          params: { variant: 'waiting', previousName: 'TP1' },
        },
      },
      'Waiting for TP1 to be filled first',
    ],
    [
      'the level is no longer available',
      {
        status: 422,
        body: {
          success: false,
          error: 'TAKE_PROFIT_NOT_PUSHABLE',
          message: 'TP1 is not available to push',
          params: { name: 'TP1' },
        },
      },
      'TP1 is not available to push',
    ],
    [
      'the venue refused the market order',
      {
        status: 422,
        body: {
          success: false,
          error: 'PUSH_FAILED',
          message: 'Failed to push TP1: Insufficient BTC: 0.025 needed, 0 available',
          params: {
            name: 'TP1',
            error: 'Insufficient BTC: 0.025 needed, 0 available',
            'error.code': 'INSUFFICIENT_FUNDS',
            'error.variant': 'balance',
            'error.asset': 'BTC',
            'error.needed': '0.025',
            'error.available': '0',
          },
        },
      },
      'Failed to push TP1: Insufficient BTC: 0.025 needed, 0 available',
    ],
    ['the server gave no reason', { status: 502 }, 'Failed to push take profit to market'],
    ['no answer came back', 'network-error' as const, 'Network error occurred'],
  ])('says so when %s', async (_case, reply, message) => {
    serveTrade(reply);
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    await pushTp1();
    const result = await screen.findByTestId('push-result');
    expect(result.textContent).toBe(message);
    expect(result.closest('[role="alert"]')).toBeTruthy();
  });

  it('speaks French', async () => {
    serveTrade({
      status: 422,
      body: {
        success: false,
        error: 'TAKE_PROFIT_NOT_PUSHABLE',
        message: 'Waiting for TP1 to be filled first',
        params: { variant: 'waiting', previousName: 'TP1' },
      },
    });
    await changeLanguage('fr-FR');
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Envoyer au marché (TP1)' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Envoyer TP1 au marché\u202f?' });
    expect(dialog.textContent).toContain('L’ordre limite actuel de TP1');
    await user.click(within(dialog).getByRole('button', { name: 'Envoyer au marché' }));
    expect((await screen.findByTestId('push-result')).textContent).toBe('En attente de l’exécution de TP1');
  });

  it('edits the stop-loss, closes at market and deletes, each through the server', async () => {
    let detail = serverTrade();
    const server = serve((call) => {
      if (call.method === 'GET' && call.path === `/api/trades/${TRADE_ID}`)
        return { body: { success: true, results: detail } };
      if (call.method === 'PUT' && call.path === `/api/trades/${TRADE_ID}`) {
        detail = serverTrade({ stopLossPercent: '2', stopLossPrice: '55658.7' });
        return { body: { success: true, results: detail } };
      }
      if (call.method === 'POST' && call.path === `/api/trades/${TRADE_ID}/complete`) {
        detail = serverTrade({
          status: 'closed',
          closeReason: 'manual close',
          closedAt: '2026-11-21T14:00:00Z',
        });
        return {
          body: {
            success: true,
            results: {
              tradeId: TRADE_ID,
              completed: true,
              status: 'closed',
              closeReason: 'manual close',
              closedAt: null,
              exitPrice: null,
              pnl: null,
              pnlPercent: null,
              order: null,
            },
          },
        };
      }
      if (call.method === 'DELETE') return { body: { success: true, message: 'Trade deleted' } };
      return undefined;
    });
    loginAs();
    const app = renderApp(`/trade/${TRADE_ID}`);
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Edit stop-loss' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop-loss of BTC/USDT' });
    const distance = within(dialog).getByLabelText('Distance from the entry', {
      selector: 'input[inputmode]',
    });
    await user.clear(distance);
    await user.type(distance, '150');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter a stop-loss between 0 and 100%')).toBeTruthy();
    await user.clear(distance);
    await user.type(distance, '2');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Stop-loss saved')).toBeTruthy();
    expect(server.calls.find((call) => call.method === 'PUT')?.body).toEqual({
      stopLossPercent: '2',
      breakEvenAfterTp1: true,
    });

    await user.click(screen.getByRole('button', { name: 'Close now' }));
    const close = await screen.findByRole('alertdialog', { name: 'Close BTC/USDT now?' });
    expect(close.textContent).toContain('the 0.05 BTC still held is sold at market');
    await user.click(within(close).getByRole('button', { name: 'Close at market' }));
    expect(await screen.findByText('BTC/USDT trade closed at market')).toBeTruthy();
    expect(await screen.findByText('Closed by hand')).toBeTruthy();

    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const remove = await screen.findByRole('alertdialog', { name: 'Delete this BTC/USDT trade?' });
    await user.click(within(remove).getByRole('button', { name: 'Delete trade' }));
    await waitFor(() => expect(app.location()).toBe('/trading'));
    expect(
      server.calls.some((call) => call.method === 'DELETE' && call.path === `/api/trades/${TRADE_ID}`),
    ).toBe(true);
  });

  it('offers delete, not push or close, for a finished trade', async () => {
    const detail = serverTrade({
      status: 'closed',
      exitPrice: '57100.1',
      pnl: '12.5',
      pnlPercent: '0.44',
      closedAt: '2026-11-21T15:00:00.000Z',
      durationMs: 5_760_000,
      closeReason: 'take profit',
    });
    detail.ladder = detail.ladder.map((level) => ({ ...level, status: 'filled', pushable: false }));
    const server = serveTrade(undefined, detail);
    server.calls.length = 0;
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    expect(await screen.findByText('Closed by take-profit')).toBeTruthy();
    expect(screen.getByText('+12.50')).toBeTruthy();
    expect(screen.getByText('1h 36m')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Push/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Close now' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy();
  });
});

describe('TradeDetail of a position closed outside Kairos', () => {
  it.each([
    ['liquidation', 'Liquidated by the venue'],
    ['closed on venue', 'Closed on the venue, outside Kairos'],
  ])('names the close reason %s', async (closeReason, label) => {
    const detail = serverTrade({
      status: 'closed',
      exitPrice: '44000',
      pnl: '-1250',
      pnlPercent: '-4.4',
      closedAt: '2026-11-21T15:00:00.000Z',
      durationMs: 5_760_000,
      closeReason,
    });
    detail.ladder = detail.ladder.map((level) => ({ ...level, status: 'cancelled', pushable: false }));
    serveTrade(undefined, detail);
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    expect(await screen.findByText(label)).toBeTruthy();
  });
});

describe('TradeDetail at the last price (issue 21)', () => {
  /** The trade as a server that marks it at 57,800 sends it (0.05 BTC held, bought at 56,794.59). */
  function markedTrade(overrides: Partial<TradeDetail['trade']> = {}): TradeDetail {
    const detail = serverTrade({
      currentPrice: '57800',
      unrealisedPnl: '47.4307705',
      unrealisedPnlPercent: '1.6703',
      unrealisedPnlMarginPercent: null,
      estimatedClosePnl: '44.5407705',
      ...overrides,
    });
    detail.ladder = detail.ladder.map((level) =>
      level.role === 'tp1' ? { ...level, estimatedPushPnl: '23.69025' } : level,
    );
    return detail;
  }

  it('shows the current price and the unrealised PnL in quote and percent', async () => {
    serveTrade(undefined, markedTrade());
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    const pnl = (await screen.findByText('Unrealised PnL', {}, { timeout: 5000 })).parentElement!;
    // One money formatter (issue 21): USDT to its usual 2 decimals, never the raw 8.
    expect(pnl.textContent).toContain('+47.43USDT');
    expect(pnl.textContent).toContain('+1.67%');
    expect(pnl.textContent).not.toContain('on margin');
    expect(screen.getByText('Current price').parentElement?.textContent).toContain('57,800.00 USDT');
    // Beside it, the PnL its exits realised so far says so.
    expect(screen.getByText('Realised PnL')).toBeTruthy();
  });

  it('says the percent on margin of a futures position, labelled', async () => {
    serveTrade(undefined, markedTrade({ unrealisedPnlMarginPercent: '8.3515' }));
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    const pnl = (await screen.findByText('Unrealised PnL', {}, { timeout: 5000 })).parentElement!;
    expect(pnl.textContent).toMatch(/\+1\.67%.*\+8\.35%on margin/);
  });

  it('the push confirmation says the current price and the estimated result of pushing now', async () => {
    const server = serveTrade(undefined, markedTrade());
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Push to market (TP1)' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Push TP1 to market?' });
    expect(dialog.textContent).toContain('Current price57,800.00 USDT');
    expect(dialog.textContent).toContain('Estimated result now≈ +23.69 USDT');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.pushes()).toHaveLength(0);
  });

  it('the close confirmation says the estimated result of closing now', async () => {
    serveTrade(undefined, markedTrade({ estimatedClosePnl: '-12.4' }));
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Close now' }, { timeout: 5000 }));
    const close = await screen.findByRole('alertdialog', { name: 'Close BTC/USDT now?' });
    expect(close.textContent).toContain('the 0.05 BTC still held is sold at market');
    expect(close.textContent).toContain('Estimated result now≈ -12.40 USDT');
  });

  it('an answer with no price (an older server, a venue not answering) says so and estimates nothing', async () => {
    serveTrade(undefined, serverTrade());
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    expect(
      await screen.findByText('No price from the exchange right now', {}, { timeout: 5000 }),
    ).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Close now' }));
    const close = await screen.findByRole('alertdialog', { name: 'Close BTC/USDT now?' });
    expect(close.textContent).not.toContain('Estimated result');
  });

  it('speaks French', async () => {
    serveTrade(undefined, markedTrade({ unrealisedPnlMarginPercent: '8.3515' }));
    await changeLanguage('fr-FR');
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    const pnl = (await screen.findByText('PnL latent', {}, { timeout: 5000 })).parentElement!;
    expect(pnl.textContent).toContain('sur la marge');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Envoyer au marché (TP1)' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Envoyer TP1 au marché\u202f?' });
    expect(dialog.textContent).toContain('Résultat estimé maintenant≈ +23,69 USDT');
  });
});

describe('TradeDetail of a resting limit entry (issue 21)', () => {
  /** A manual limit buy at 60,000 not filled yet: nothing held, no entry price, the stop waits for the fill. */
  function pendingTrade(): TradeDetail {
    const detail = serverTrade({
      quantity: '0',
      openQuantity: '0',
      entryPrice: null,
      commission: '0',
      stopLossPrice: null,
      takeProfits: [],
    });
    return {
      ...detail,
      protection: null,
      ladder: [],
      fills: [],
      timeline: [],
      orders: [
        {
          ...detail.orders[0]!,
          type: 'limit',
          price: '60000',
          amount: '0.002',
          filled: '0',
          average: null,
          status: 'open',
        },
      ],
    };
  }

  it('reads as an order, not a position of 0.00 with no stop, and its action cancels the order', async () => {
    serveTrade(undefined, pendingTrade());
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    expect(await screen.findByText('Entry pending', {}, { timeout: 5000 })).toBeTruthy();
    const quantity = screen.getByText('Quantity').parentElement!;
    expect(quantity.textContent).toContain('Limit order for 0.002 BTC at 60,000.00 USDT, not filled yet');
    expect(quantity.textContent).not.toContain('0.00 BTC');
    expect(screen.getByText('Stop-loss').parentElement!.textContent).toContain('Placed when the entry fills');
    expect(screen.queryByText('Unrealised PnL')).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Cancel the order' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel the BTC/USDT limit order?' });
    expect(dialog.textContent).toContain('nothing has been filled');
  });
});

describe('TradeDetail: what the server wrote on the trade, in the user’s language (issue 21)', () => {
  const UNEXPLAINED =
    'The venue holds less than this trade: 0 BTC/USDT long at the venue, 0.05 in Kairos, and the venue lists no fill that closed the rest. Kairos books nothing on a guess and leaves the stop and take-profits in place: check the position on the venue.';

  async function noteInFrench(trade: Partial<TradeDetail['trade']>) {
    serveTrade(undefined, serverTrade(trade));
    await changeLanguage('fr-FR');
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    return (await screen.findByRole('alert', {}, { timeout: 5000 })).textContent;
  }

  it('says a note from its code and params, its figures written the French way', async () => {
    const note = await noteInFrench({
      error: UNEXPLAINED,
      errorCode: 'POSITION_SHORTFALL_UNEXPLAINED',
      errorParams: { atVenue: '0', symbol: 'BTC/USDT', side: 'long', inKairos: '0.05' },
    });
    expect(note).toBe(
      'La plateforme détient moins que ce trade\u00a0: 0 BTC/USDT long sur la plateforme, 0,05 dans Kairos, et elle ne liste aucune exécution qui ait clôturé le reste. Kairos ne comptabilise rien sur une supposition et laisse le stop-loss et les take-profits en place\u00a0: vérifiez la position sur la plateforme.',
    );
  });

  it('shows a note written before notes had codes as the server wrote it', async () => {
    expect(await noteInFrench({ error: UNEXPLAINED })).toBe(UNEXPLAINED);
  });

  /** Trade detail in French with its entry in `status` and this error; the timeline's order row. */
  async function orderRowInFrench(error: Partial<TradeDetail['orders'][number]>) {
    const detail = serverTrade();
    const order = { ...detail.orders[0]!, status: 'rejected' as const, ...error };
    serveTrade(undefined, {
      ...detail,
      orders: [order],
      timeline: detail.timeline
        .filter((entry) => entry.kind === 'order')
        .map((entry) => ({ ...entry, status: 'rejected' })),
    });
    await changeLanguage('fr-FR');
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    return within(await screen.findByRole('table', { name: 'Ordres et exécutions' }, { timeout: 5000 }));
  }

  it('says an order’s error the server wrote in French, in its status badge’s tooltip', async () => {
    const timeline = await orderRowInFrench({
      lastError: 'The venue never received this order',
      lastErrorCode: 'ORDER_LOST',
      lastErrorParams: null,
    });
    expect(timeline.getByTitle('La plateforme n’a jamais reçu cet ordre')).toBeTruthy();
  });

  it('says a venue’s refusal in our words from its code and params, its figures written the French way', async () => {
    const timeline = await orderRowInFrench({
      lastError: 'Insufficient USDT: 650.5 needed, 100 available',
      lastErrorCode: 'INSUFFICIENT_FUNDS',
      lastErrorParams: { variant: 'balance', asset: 'USDT', needed: '650.5', available: '100' },
    });
    // As said, its no-break space before the colon kept (the default normaliser would make it a space).
    const said = 'USDT insuffisant\u00a0: 650,5 nécessaires, 100 disponibles';
    expect(timeline.getByTitle(said, { normalizer: (title) => title })).toBeTruthy();
  });

  const WORDS = 'Filter failure: NOTIONAL';

  it('shows the venue’s own words as they came', async () => {
    const timeline = await orderRowInFrench({
      lastError: WORDS,
      lastErrorCode: 'INVALID_ORDER',
      lastErrorParams: { reason: WORDS },
    });
    expect(timeline.getByTitle(WORDS)).toBeTruthy();
  });

  it('shows an order’s error written before errors had codes as the server wrote it', async () => {
    expect((await orderRowInFrench({ lastError: WORDS })).getByTitle(WORDS)).toBeTruthy();
  });

  it.each([
    ['signal exit', 'Clôturé par un signal de sortie'],
    ['signal short', 'Clôturé par un signal short (retournement)'],
    ['admin close', 'Clôturé par un administrateur'],
    ['bot stopped', 'Clôturé à l’arrêt de son bot'],
  ])('names the close reason %s in French', async (closeReason, label) => {
    serveTrade(
      undefined,
      serverTrade({
        status: 'closed',
        closeReason,
        closedAt: '2026-11-21T14:00:00.000Z',
        exitPrice: '57000',
      }),
    );
    await changeLanguage('fr-FR');
    loginAs();
    renderApp(`/trade/${TRADE_ID}`);
    expect(await screen.findByText(label, {}, { timeout: 5000 })).toBeTruthy();
  });
});
