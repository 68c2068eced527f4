import type {
  AdminStrategy,
  BotActionOutcome,
  TradeControlResult,
  TradeControlScope,
  TradeControlStatus,
} from '@kairos/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { nestedParams } from '@kairos/contract';
import { describe, expect, it } from 'vitest';
import { changeLanguage } from '../../../i18n';
import { type MockReply, type RecordedRequest, mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';

function serverStrategy(overrides: Partial<AdminStrategy> = {}): AdminStrategy {
  return {
    id: 'st-1',
    nickname: 'Trend BTC',
    strategyKey: 'trend-btc',
    tradeCurrency: 'BTC',
    timeFrame: '1h',
    status: 'active',
    isPublic: true,
    ownerId: 'u-admin',
    ownerEmail: 'admin@example.com',
    figures: { botsTotal: 2, botsActive: 2, activeTrades: 1, openOrders: 3 },
    ...overrides,
  };
}

function serverStatus(): TradeControlStatus {
  return {
    strategy: serverStrategy(),
    bots: [
      {
        botId: 'b-1',
        nickname: 'Ada’s follower',
        userId: 'u-1',
        userEmail: 'ada@example.com',
        isActive: true,
        position: 'long',
        tradingAccount: { id: 'acc-1', nickname: 'Paper main', exchange: 'paper' },
        trade: {
          id: 't-1',
          symbol: 'BTC/USDT',
          side: 'long',
          status: 'open',
          quantity: '0.0176',
          entryPrice: '56799.76',
          openedAt: '2026-11-20T09:00:00.000Z',
          currentPrice: '57100',
          unrealisedPnl: '5.28422624',
          estimatedClosePnl: '4.27926624',
        },
        openOrders: 3,
      },
      {
        botId: 'b-2',
        nickname: 'Bob’s bot',
        userId: 'u-2',
        userEmail: 'bob@example.com',
        isActive: true,
        position: 'out',
        tradingAccount: { id: 'acc-2', nickname: 'Bob paper', exchange: 'paper' },
        trade: null,
        openOrders: 0,
      },
    ],
  };
}

function serverScope(query: URLSearchParams): TradeControlScope {
  const push = query.get('action') === 'push-to-tp';
  return {
    strategyId: 'st-1',
    action: push ? 'push-to-tp' : 'close-positions',
    users: 1,
    trades: push ? 1 : 2,
    unpriced: push ? 0 : 1,
    totals: [
      {
        currency: 'USDT',
        notional: push ? '499.7268' : '999.45362',
        estimatedPnl: push ? '-1.45903' : '-2.52708716',
      },
    ],
  };
}

/** Types the strategy's name into the confirmation, which unlocks its button. */
async function typeName(confirm: HTMLElement, name = 'Trend BTC') {
  await userEvent.type(within(confirm).getByLabelText(`Type ${name} to confirm`), name);
}

const pushResult: TradeControlResult = {
  strategyId: 'st-1',
  action: 'push-to-tp',
  done: 1,
  skipped: 1,
  failed: 0,
  outcomes: [
    {
      botId: 'b-1',
      userId: 'u-1',
      status: 'done',
      message: 'Successfully pushed TP1 to market! Order ID: 42',
      code: 'TAKE_PROFIT_PUSHED',
      params: { name: 'TP1', orderId: '42' },
      orderIds: ['o-1'],
    },
    {
      botId: 'b-2',
      userId: 'u-2',
      status: 'skipped',
      message: 'No open position',
      code: 'NO_OPEN_POSITION',
      params: {},
      orderIds: [],
    },
  ],
};

/** One bot's push the venue refused, as the server sends it: PUSH_FAILED, the refusal nested under `error`. */
function failedPush(
  n: number,
  name: string,
  refusal: { message: string; code: string; params: Record<string, string> },
): BotActionOutcome {
  return {
    botId: `b-${n}`,
    userId: `u-${n}`,
    status: 'failed',
    message: `Failed to push ${name}: ${refusal.message}`,
    code: 'PUSH_FAILED',
    params: { name, ...nestedParams('error', refusal) },
    orderIds: [],
  };
}

/** A push refused for both bots: the paper venue's refusal (our words), and a venue's own words. */
function refusedPushResult(): TradeControlResult {
  const inVenueWords = 'Filter failure: LOT_SIZE';
  return {
    strategyId: 'st-1',
    action: 'push-to-tp',
    done: 0,
    skipped: 0,
    failed: 2,
    outcomes: [
      failedPush(1, 'TP1', {
        message: 'Insufficient BTC: 0.0088 needed, 0.005 available',
        code: 'INSUFFICIENT_FUNDS',
        params: { variant: 'balance', asset: 'BTC', needed: '0.0088', available: '0.005' },
      }),
      failedPush(2, 'TP2', {
        message: inVenueWords,
        code: 'INVALID_ORDER',
        params: { reason: inVenueWords },
      }),
    ],
  };
}

function routes(action: (request: RecordedRequest) => MockReply) {
  return (request: RecordedRequest): MockReply => {
    if (request.path === '/admin/strategies')
      return {
        body: {
          success: true,
          results: [
            serverStrategy(),
            serverStrategy({ id: 'st-2', nickname: 'ETH swing', strategyKey: 'eth-swing', status: 'paused' }),
          ],
        },
      };
    if (request.path === '/admin/strategies/st-1/trades/status')
      return { body: { success: true, results: serverStatus() } };
    if (request.path === '/admin/strategies/st-1/trades/scope')
      return { body: { success: true, results: serverScope(new URL(request.url, 'http://x').searchParams) } };
    if (request.method === 'POST' || request.method === 'PUT') return action(request);
    return undefined;
  };
}

async function openTradeControl(action: (request: RecordedRequest) => MockReply) {
  const server = mockFetch(routes(action));
  loginAs({ role: 'admin' });
  const app = renderApp('/admin/trade-control');
  await screen.findByRole('heading', { name: 'Trade control', level: 1 }, { timeout: 5000 });
  await screen.findByRole('table', { name: 'Bots of the strategy' });
  return { ...server, ...app };
}

/** In French: runs a strategy-wide action (its button, then its confirmation's) answered with `result`. */
async function runInFrench([button, confirmButton]: [string, string], result: TradeControlResult) {
  await changeLanguage('fr-FR');
  mockFetch(routes(() => ({ body: { success: true, results: result } })));
  loginAs({ role: 'admin' });
  renderApp('/admin/trade-control');
  await userEvent.click(await screen.findByRole('button', { name: button }, { timeout: 5000 }));
  const confirm = await screen.findByRole('alertdialog');
  await userEvent.type(within(confirm).getByLabelText('Saisissez Trend BTC pour confirmer'), 'Trend BTC');
  await userEvent.click(within(confirm).getByRole('button', { name: confirmButton }));
  return screen.findByRole('region', { name: 'Résultat de la dernière action' });
}

describe('AdminTradeControl', () => {
  it('shows every strategy’s figures, and the first one’s bots with their trades', async () => {
    const { location } = await openTradeControl(() => undefined);
    const strategies = screen.getByRole('table', { name: 'Strategies' });
    const row = within(strategies)
      .getByRole('button', { name: /Trend BTC/ })
      .closest('tr') as HTMLElement;
    expect(within(row).getByText('2 / 2')).toBeTruthy();
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(within(strategies).getByText('Paused')).toBeTruthy();
    const bots = screen.getByRole('table', { name: 'Bots of the strategy' });
    expect(within(bots).getByText('Ada’s follower')).toBeTruthy();
    expect(within(bots).getByText('0.0176 BTC at 56,799.76 USDT')).toBeTruthy();
    expect(within(bots).getByText('No open trade')).toBeTruthy();
    // A phone gets a card a bot, its trade, PnL and actions in view (no table to scroll sideways).
    const cards = within(screen.getByRole('list', { name: 'Bots of the strategy' })).getAllByRole('listitem');
    expect(cards[0]?.textContent).toContain('Ada’s follower');
    expect(cards[0]?.textContent).toContain('0.0176 BTC at 56,799.76 USDT');
    expect(within(cards[0]!).getByRole('button', { name: 'Close trade (Ada’s follower)' })).toBeTruthy();
    expect(location()).toBe('/admin/trade-control');
  });

  it('asks before each action with a message that it cannot be undone, and sends nothing on cancel', async () => {
    const { requests } = await openTradeControl(() => ({ body: { success: true, results: pushResult } }));
    for (const [label, title] of [
      ['Push to take profit', 'Push Trend BTC to take profit?'],
      ['Close positions', 'Close every position of Trend BTC?'],
      ['Cancel orders', 'Cancel every open order of Trend BTC?'],
    ] as const) {
      await userEvent.click(screen.getByRole('button', { name: label }));
      const confirm = await screen.findByRole('alertdialog', { name: title });
      expect(confirm.textContent).toContain('This cannot be undone.');
      await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    }
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('confirm → call → outcome: done, skipped and failed with each bot’s message', async () => {
    const { requests } = await openTradeControl(() => ({ body: { success: true, results: pushResult } }));
    await userEvent.click(screen.getByRole('button', { name: 'Push to take profit' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Push Trend BTC to take profit?' });
    await typeName(confirm);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Push to take profit' }));

    const outcome = await screen.findByRole('region', { name: 'Outcome of the last action' });
    const post = requests.find((r) => r.method === 'POST');
    expect(post?.path).toBe('/admin/strategies/st-1/trades/push-to-tp');
    expect(post?.body).toEqual({});
    expect(within(outcome).getByText('Push to take profit: outcome')).toBeTruthy();
    expect(within(outcome).getByText('Successfully pushed TP1 to market! Order ID: 42')).toBeTruthy();
    expect(within(outcome).getByText('No open position')).toBeTruthy();
    expect(within(outcome).getByText('Ada’s follower')).toBeTruthy();
    await screen.findByText('1 done · 1 skipped · 0 failed');
    // Positions and orders changed: the figures are asked again.
    await waitFor(() =>
      expect(
        requests.filter((r) => r.path === '/admin/strategies/st-1/trades/status').length,
      ).toBeGreaterThan(1),
    );
  });

  it('speaks French, the server’s per-bot messages included', async () => {
    await changeLanguage('fr-FR');
    mockFetch(routes(() => ({ body: { success: true, results: pushResult } })));
    loginAs({ role: 'admin' });
    renderApp('/admin/trade-control');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Envoyer le take-profit au marché' }, { timeout: 5000 }),
    );
    // The paper venue by its French name (glossary), never "paper".
    const bots = screen.getByRole('table', { name: /Bots de la stratégie/ });
    expect(bots.textContent).toContain('Paper main · Simulé');
    expect(bots.textContent).not.toMatch(/· paper/);
    const confirm = await screen.findByRole('alertdialog', {
      name: 'Envoyer le take-profit de Trend BTC au marché\u202f?',
    });
    expect(confirm.textContent).toContain('Cette action est irréversible.');
    await userEvent.type(within(confirm).getByLabelText('Saisissez Trend BTC pour confirmer'), 'Trend BTC');
    expect(confirm.textContent).toMatch(/1,46\sUSDT/);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Envoyer au marché' }));
    const outcome = await screen.findByRole('region', { name: 'Résultat de la dernière action' });
    expect(within(outcome).getByText('Aucune position ouverte')).toBeTruthy();
    expect(outcome.textContent).toContain('TP1 envoyé au marché avec succès\u202f! ID de l’ordre\u00a0: 42');
  });

  it('says a failed push in French, the venue’s refusal inside it included (issue 21)', async () => {
    const outcome = await runInFrench(
      ['Envoyer le take-profit au marché', 'Envoyer au marché'],
      refusedPushResult(),
    );
    // Our words for the paper venue's refusal, its figures the French way; a venue's own words as they came.
    expect(outcome.textContent).toContain(
      'Échec de l’envoi de TP1\u00a0: BTC insuffisant\u00a0: 0,0088 nécessaires, 0,005 disponibles',
    );
    expect(outcome.textContent).toContain('Échec de l’envoi de TP2\u00a0: Filter failure: LOT_SIZE');
    expect(outcome.textContent).not.toMatch(/Failed to push|Insufficient/);
  });

  it('says each bot’s cancel counts in French', async () => {
    const cancelResult: TradeControlResult = {
      strategyId: 'st-1',
      action: 'cancel-orders',
      done: 1,
      skipped: 0,
      failed: 0,
      outcomes: [
        {
          botId: 'b-1',
          userId: 'u-1',
          status: 'done',
          message: '2 cancelled, 1 filled before the cancel',
          code: 'ORDERS_CANCELLED',
          params: { variant: 'filled', cancelled: 2, filled: 1 },
          orderIds: ['o-1', 'o-2', 'o-3'],
        },
      ],
    };
    const outcome = await runInFrench(['Annuler les ordres', 'Annuler les ordres'], cancelResult);
    expect(outcome.textContent).toContain('Ordres annulés\u00a0: 2, exécutés avant l’annulation\u00a0: 1');
  });

  it('says why when the server refuses the action', async () => {
    await openTradeControl(() => ({
      status: 404,
      body: {
        success: false,
        error: 'NOT_FOUND',
        message: 'Strategy not found',
        params: { variant: 'strategy' },
      },
    }));
    await userEvent.click(screen.getByRole('button', { name: 'Close positions' }));
    const confirm = await screen.findByRole('alertdialog');
    await typeName(confirm);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Close positions' }));
    await screen.findByText('Close positions failed');
    expect(screen.getByText('Strategy not found')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Outcome of the last action' })).toBeNull();
  });

  it('keeps the picked strategy in the URL', async () => {
    const { location } = await openTradeControl(() => undefined);
    const table = screen.getByRole('table', { name: 'Strategies' });
    await userEvent.click(within(table).getByRole('button', { name: /ETH swing/ }));
    await waitFor(() => expect(location()).toBe('/admin/trade-control?strategy=st-2'));
  });

  it('lists the strategies as cards for a phone, each with its figures, picked with a tap (issue 21)', async () => {
    const { location } = await openTradeControl(() => undefined);
    const cards = within(screen.getByRole('list', { name: 'Strategies' })).getAllByRole('button');
    expect(cards.map((card) => card.getAttribute('aria-current'))).toEqual(['true', null]);
    expect(cards[0]!.textContent).toMatch(/Trend BTC.*Active.*Bots2 \/ 2Active trades\d+Open orders\d+/);
    await userEvent.click(cards[1]!);
    await waitFor(() => expect(location()).toBe('/admin/trade-control?strategy=st-2'));
  });

  it('shows what a strategy-wide close reaches, priced now, and runs only once the name is typed', async () => {
    const { requests } = await openTradeControl(() => ({
      body: { success: true, results: { ...pushResult, action: 'close-positions' } },
    }));
    await userEvent.click(screen.getByRole('button', { name: 'Close positions' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Close every position of Trend BTC?' });
    const scope = await within(confirm).findByRole('region', { name: 'What this reaches now' });
    const figure = (label: string) => within(scope).getByText(label).nextElementSibling?.textContent;
    expect(figure('Users')).toBe('1');
    expect(figure('Trades')).toBe('2');
    expect(figure('Notional at the last price')).toBe('999.45 USDT');
    expect(figure('Estimated PnL')).toContain('-2.53 USDT');
    expect(scope.textContent).toContain('1 trade has no price right now and is left out of these totals.');
    expect(requests.some((r) => r.url.includes('/trades/scope?action=close-positions'))).toBe(true);

    const run = within(confirm).getByRole('button', { name: 'Close positions' });
    expect((run as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(within(confirm).getByLabelText('Type Trend BTC to confirm'), 'Trend');
    expect((run as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(run);
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    await userEvent.type(within(confirm).getByLabelText('Type Trend BTC to confirm'), ' BTC');
    expect((run as HTMLButtonElement).disabled).toBe(false);
    await userEvent.click(run);
    await waitFor(() =>
      expect(requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
        '/admin/strategies/st-1/trades/close-positions',
      ]),
    );
  });

  it('the push confirmation prices only what the push would sell', async () => {
    await openTradeControl(() => undefined);
    await userEvent.click(screen.getByRole('button', { name: 'Push to take profit' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Push Trend BTC to take profit?' });
    const scope = await within(confirm).findByRole('region', { name: 'What this reaches now' });
    expect(scope.textContent).toContain('499.73 USDT');
    expect(scope.textContent).toContain('-1.46 USDT');
    expect(scope.textContent).not.toContain('no price');
  });

  it('pauses the strategy for every subscriber, after asking', async () => {
    const { requests } = await openTradeControl((request) =>
      request.method === 'PUT'
        ? { body: { success: true, results: { ...serverStrategy(), status: 'paused' } } }
        : undefined,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Pause strategy' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Pause Trend BTC?' });
    expect(confirm.textContent).toContain('for every subscriber');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Pause strategy' }));
    await screen.findByText('Trend BTC is paused');
    expect(requests.find((r) => r.method === 'PUT')).toMatchObject({
      path: '/admin/strategies/st-1/status',
      body: { status: 'paused' },
    });
  });

  it('each bot: its trade at the last price, and its own close and pause', async () => {
    const closed: BotActionOutcome = {
      botId: 'b-1',
      userId: 'u-1',
      status: 'done',
      message: 'Position closed at market',
      code: 'POSITION_CLOSED',
      params: {},
      orderIds: ['o-9'],
    };
    const { requests } = await openTradeControl(() => ({ body: { success: true, results: closed } }));
    const bots = screen.getByRole('table', { name: 'Bots of the strategy' });
    expect(within(bots).getByText('Last 57,100.00 USDT')).toBeTruthy();
    expect(within(bots).getByText(/\+5\.28 USDT/)).toBeTruthy();
    expect(within(bots).getByText('0.0176 BTC at 56,799.76 USDT')).toBeTruthy();
    // Bob's bot has no trade: nothing to close, but it can be paused.
    expect(within(bots).queryByRole('button', { name: 'Close trade (Bob’s bot)' })).toBeNull();
    expect(within(bots).getByRole('button', { name: 'Pause bot (Bob’s bot)' })).toBeTruthy();

    await userEvent.click(within(bots).getByRole('button', { name: 'Close trade (Ada’s follower)' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Close the trade of Ada’s follower?' });
    expect(confirm.textContent).toContain('Last price 57,100.00 USDT · estimated result +4.28 USDT');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Close trade' }));
    await screen.findByText('Ada’s follower: Position closed at market');

    await userEvent.click(within(bots).getByRole('button', { name: 'Pause bot (Ada’s follower)' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Pause Ada’s follower?' })).getByRole('button', {
        name: 'Pause bot',
      }),
    );
    await waitFor(() =>
      expect(requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
        '/admin/bots/b-1/close-position',
        '/admin/bots/b-1/pause',
      ]),
    );
  });
});
