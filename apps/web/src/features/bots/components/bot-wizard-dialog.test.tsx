import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { type MockReply, type RecordedRequest, mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderWithProviders } from '../../../testing/render';
import type { AccountOption, StrategyOption } from '../utils/bot-rules';
import { BotWizardDialog } from './bot-wizard-dialog';

const accounts: AccountOption[] = [
  {
    id: 'acc-spot',
    nickname: 'Paper spot',
    exchange: 'paper',
    marketType: 'spot',
    usdtBalance: '10000',
    botCount: 1,
    status: 'active',
  },
  {
    id: 'acc-fut',
    nickname: 'Paper futures',
    exchange: 'paper',
    marketType: 'future',
    usdtBalance: '2000',
    botCount: 0,
    status: 'active',
  },
];
const strategies: StrategyOption[] = [
  {
    id: 'st-1',
    nickname: 'Trend ETH',
    strategyKey: 'trend-eth',
    tradeCurrency: 'ETH',
    stableCoin: 'USDT',
    timeFrame: '4h',
    status: 'active',
    isPublic: true,
    isOwner: false,
  },
];
/** Another bot already holds half of the spot account. */
const distribution = {
  accountId: 'acc-spot',
  usdtBalance: '10000',
  allocatedPercent: '50.00',
  availablePercent: '50.00',
  bots: [{ botId: 'b0', nickname: 'Other', portfolioPercent: '50', fixedAmount: null, isActive: true }],
};

function createdBot(body: Record<string, unknown>) {
  return {
    id: 'bot-new',
    nickname: body.nickname,
    isActive: body.is_active,
    isTrading: false,
    tradeCurrency: body.trade_currency,
    stableCoin: body.stable_coin,
    portfolioPercent: body.portfolio_percent ?? null,
    fixedAmount: body.fixed_amount ?? null,
    leveragePercent: body.leverage_percent,
    monthlyGoalPercent: null,
    goalAccumulatedProfitPercent: '0',
    position: 'out',
    strategy: {
      id: 'st-1',
      nickname: 'Trend ETH',
      strategyKey: 'trend-eth',
      tradeCurrency: 'ETH',
      timeFrame: '4h',
    },
    tradingAccount: { id: 'acc-spot', nickname: 'Paper spot', exchange: 'paper', usdtBalance: '10000' },
    createdAt: '',
    updatedAt: '',
  };
}

/** The server's answer to the wizard's POST /api/bots: the bot it describes, created. */
function botCreated(request: RecordedRequest): MockReply {
  if (request.method !== 'POST' || request.path !== '/api/bots') return undefined;
  return {
    status: 201,
    body: { success: true, results: createdBot(request.body as Record<string, unknown>) },
  };
}

async function next() {
  await userEvent.click(screen.getByRole('button', { name: 'Next' }));
}

/** Opens the wizard and walks name, account, strategy and config to the "leverage and volume" step. */
async function openAtVolume(name: string, account: RegExp) {
  renderWithProviders(
    <BotWizardDialog accounts={accounts} strategies={strategies} onClose={() => undefined} />,
  );
  await userEvent.type(await screen.findByLabelText('Name'), name);
  await next();
  await userEvent.click(screen.getByRole('radio', { name: account }));
  await next();
  await userEvent.click(screen.getByRole('radio', { name: /Trend ETH/ }));
  await next();
  await next();
}

describe('bot creation wizard', () => {
  it('walks the seven steps with validation, refuses over-allocating, then creates the bot', async () => {
    const { requests } = mockFetch((request) => {
      if (request.path === '/api/trading-accounts/acc-spot/bots-distributions') {
        return { body: { success: true, results: distribution } };
      }
      return botCreated(request);
    });
    loginAs();
    const onCreated = vi.fn();
    const onClose = vi.fn();
    renderWithProviders(
      <BotWizardDialog accounts={accounts} strategies={strategies} onClose={onClose} onCreated={onCreated} />,
    );

    // 1. Name
    expect(await screen.findByText('Step 1 of 7: Name')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Back' }) as HTMLButtonElement).disabled).toBe(true);
    await next();
    expect(screen.getByRole('alert').textContent).toContain('This field is required');
    await userEvent.type(screen.getByLabelText('Name'), 'ETH swing');
    await next();

    // 2. Trading account
    expect(screen.getByText('Step 2 of 7: Trading account')).toBeTruthy();
    await next();
    expect(screen.getByRole('alert').textContent).toContain('This field is required');
    await userEvent.click(screen.getByRole('radio', { name: /Paper spot/ }));
    await next();

    // 3. Strategy, which brings its pair
    await userEvent.click(screen.getByRole('radio', { name: /Trend ETH/ }));
    await next();

    // 4. Config
    expect((screen.getByLabelText('Trade currency') as HTMLInputElement).value).toBe('ETH');
    expect((screen.getByLabelText('Stable coin') as HTMLInputElement).value).toBe('USDT');
    await next();

    // 5. Leverage and volume: spot has no leverage; half the account is taken already
    expect(screen.getByText(/Spot accounts trade without leverage/)).toBeTruthy();
    expect(screen.queryByLabelText('Leverage')).toBeNull();
    const share = await screen.findByLabelText('Share of the account', { selector: 'input' });
    await userEvent.type(share, '60');
    await next();
    expect(screen.getByRole('alert').textContent).toContain('Only 50.00% of this account is still free');
    await userEvent.clear(share);
    await userEvent.type(share, '20');
    expect(screen.getByTestId('allocation').textContent).toContain('30.00%');
    await next();

    // 6. Release
    await userEvent.click(screen.getByRole('radio', { name: /Save paused/ }));
    await next();

    // 7. Review, with a way back to any step
    expect(screen.getByText('Step 7 of 7: Review')).toBeTruthy();
    expect(screen.getByText('ETH swing')).toBeTruthy();
    expect(screen.getByText('ETH/USDT')).toBeTruthy();
    expect(screen.getByText('20.00%')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Create paused' }));

    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      nickname: 'ETH swing',
      is_active: false,
      strategy_id: 'st-1',
      trading_account_id: 'acc-spot',
      trade_currency: 'ETH',
      stable_coin: 'USDT',
      leverage_percent: '100',
      monthly_goal_percent: null,
      portfolio_percent: '20',
    });
    expect(onClose).toHaveBeenCalled();
  });

  it('asks for leverage on a futures account and shows the server’s refusal on the review', async () => {
    mockFetch((request) => {
      if (request.path === '/api/trading-accounts/acc-fut/bots-distributions') {
        return {
          body: {
            success: true,
            results: {
              accountId: 'acc-fut',
              usdtBalance: '2000',
              allocatedPercent: '0.00',
              availablePercent: '100.00',
              bots: [],
            },
          },
        };
      }
      if (request.method === 'POST') {
        return {
          status: 422,
          body: {
            success: false,
            error: 'OVER_ALLOCATED',
            message: 'This account is already 80.00% allocated',
          },
        };
      }
      return undefined;
    });
    loginAs();
    await openAtVolume('Leveraged', /Paper futures/);

    const leverage = screen.getByLabelText('Leverage');
    await userEvent.clear(leverage);
    await userEvent.type(leverage, '200');
    await userEvent.click(screen.getByRole('radio', { name: /Fixed amount/ }));
    await userEvent.type(await screen.findByLabelText('Amount per trade'), '2500');
    await next();
    const alerts = screen.getAllByRole('alert').map((alert) => alert.textContent);
    expect(alerts).toContain('!Leverage goes from 1× to 125×');
    expect(alerts).toContain('!Only 2,000.00 USDT of this account is still free');

    await userEvent.clear(leverage);
    await userEvent.type(leverage, '5');
    await userEvent.clear(screen.getByLabelText('Amount per trade'));
    await userEvent.type(screen.getByLabelText('Amount per trade'), '500');
    await next();
    await next();
    expect(screen.getByText('500.00 USDT · 5×')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Create and go live' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This account is already 80.00% allocated',
    );
  });

  it('creates one bot for a double click on "Create and go live" (issue 21)', async () => {
    const { requests, fetchMock } = mockFetch((request) => {
      if (request.path === '/api/trading-accounts/acc-fut/bots-distributions') {
        return {
          body: {
            success: true,
            results: { ...distribution, accountId: 'acc-fut', allocatedPercent: '0.00', bots: [] },
          },
        };
      }
      return botCreated(request);
    });
    loginAs();
    const onCreated = vi.fn();
    renderWithProviders(
      <BotWizardDialog
        accounts={accounts}
        strategies={strategies}
        onClose={() => undefined}
        onCreated={onCreated}
      />,
    );
    await userEvent.type(await screen.findByLabelText('Name'), 'Twice');
    await next();
    await userEvent.click(screen.getByRole('radio', { name: /Paper futures/ }));
    await next();
    await userEvent.click(screen.getByRole('radio', { name: /Trend ETH/ }));
    await next();
    await next();
    await userEvent.click(screen.getByRole('radio', { name: /Fixed amount/ }));
    await userEvent.type(await screen.findByLabelText('Amount per trade'), '100');
    await next();
    await next();

    // The answer is slow: both clicks land while the first request is on its way.
    let answer = () => undefined as void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const reply = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (init?.method === 'POST') await answered;
      return reply(input, init);
    });
    // Two clicks before React renders the first one's busy button, then a double click as a user makes it.
    const create = screen.getByRole('button', { name: 'Create and go live' });
    fireEvent.click(create);
    fireEvent.click(create);
    await userEvent.dblClick(create);
    answer();
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    // And once made, another click makes nothing.
    await userEvent.click(screen.getByRole('button', { name: 'Create and go live' }));
    const posts = requests.filter((request) => request.method === 'POST' && request.path === '/api/bots');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends "create" back to the first step with a problem, showing its error, and posts nothing', async () => {
    const { requests } = mockFetch((request) =>
      request.path === '/api/trading-accounts/acc-spot/bots-distributions'
        ? { body: { success: true, results: distribution } }
        : undefined,
    );
    loginAs();
    await openAtVolume('Jumper', /Paper spot/);
    await userEvent.type(await screen.findByLabelText('Share of the account', { selector: 'input' }), '10');
    await next();
    await next();
    expect(screen.getByText('Step 7 of 7: Review')).toBeTruthy();

    // Back to the name, emptied, then straight to the review through the stepper.
    await userEvent.click(screen.getByRole('button', { name: 'Change Name' }));
    await userEvent.clear(screen.getByLabelText('Name'));
    const steps = within(screen.getByRole('list', { name: 'Steps' })).getAllByRole('button');
    await userEvent.click(steps[6] as HTMLElement);
    expect(screen.getByText('Step 7 of 7: Review')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Create and go live' }));
    expect(await screen.findByText('Step 1 of 7: Name')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('This field is required');
    expect(requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it('opens on its Name field and goes forward on Enter, never closing (issue 21)', async () => {
    mockFetch(() => undefined);
    loginAs();
    const onClose = vi.fn();
    renderWithProviders(<BotWizardDialog accounts={accounts} strategies={strategies} onClose={onClose} />);

    const name = await screen.findByLabelText('Name');
    expect(document.activeElement).toBe(name);
    // Enter on an empty name: the step's error, still on step 1.
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByText('Step 1 of 7: Name')).toBeTruthy();

    await userEvent.type(name, 'Keyboard bot{Enter}');
    expect(await screen.findByText('Step 2 of 7: Trading account')).toBeTruthy();
    // The new step's first choice has the focus; arrows pick, Enter goes on.
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: /Paper spot/ }));
    await userEvent.keyboard(' ');
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('Step 3 of 7: Strategy')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: /Trend ETH/ }));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Create a bot' })).toBeTruthy();
  });
});
