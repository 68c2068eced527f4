import type { Bot } from '@kairos/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderWithProviders } from '../../../testing/render';
import { EditBotDialog } from './edit-bot-dialog';

const bot: Bot = {
  id: 'bot-1',
  nickname: 'BTC follower',
  isActive: true,
  isTrading: false,
  tradeCurrency: 'BTC',
  stableCoin: 'USDT',
  portfolioPercent: '20.000000000000000000',
  fixedAmount: null,
  leveragePercent: '200',
  marginMode: 'isolated',
  monthlyGoalPercent: '5.000000000000000000',
  goalAccumulatedProfitPercent: '0',
  position: 'out',
  tradingAccount: {
    id: 'acc-fut',
    nickname: 'Paper futures',
    exchange: 'paper',
    usdtBalance: '10000',
    sandbox: false,
  },
  strategy: { id: 'st-1', nickname: 'Trend', strategyKey: 'trend', tradeCurrency: 'BTC', timeFrame: '1h' },
  createdAt: '',
  updatedAt: '',
};

describe('editing a bot', () => {
  it('starts from the bot, keeps its own share out of the allocation, and saves without pausing it', async () => {
    const { requests } = mockFetch((request) => {
      if (request.path === '/api/trading-accounts/acc-fut/bots-distributions') {
        expect(request.url).toContain('exclude_bot_id=bot-1');
        return {
          body: {
            success: true,
            results: {
              accountId: 'acc-fut',
              usdtBalance: '10000',
              allocatedPercent: '70.00',
              availablePercent: '30.00',
              bots: [],
            },
          },
        };
      }
      if (request.method === 'PUT')
        return { body: { success: true, results: { ...bot, nickname: 'Renamed' } } };
      return undefined;
    });
    loginAs();
    const onClose = vi.fn();
    renderWithProviders(<EditBotDialog bot={bot} marketType="future" onClose={onClose} />);

    expect(((await screen.findByLabelText('Name')) as HTMLInputElement).value).toBe('BTC follower');
    expect((screen.getByLabelText('Monthly goal') as HTMLInputElement).value).toBe('5');
    expect((screen.getByLabelText('Leverage') as HTMLInputElement).value).toBe('2');
    const share = screen.getByLabelText('Share of the account', { selector: 'input' });
    expect((share as HTMLInputElement).value).toBe('20');

    await userEvent.clear(share);
    await userEvent.type(share, '35');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Only 30.00% of this account is still free')).toBeTruthy();

    await userEvent.clear(share);
    await userEvent.type(share, '30');
    await userEvent.clear(screen.getByLabelText('Name'));
    await userEvent.type(screen.getByLabelText('Name'), 'Renamed');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((request) => request.method === 'PUT')).toMatchObject({
      path: '/api/bots/bot-1',
      body: {
        nickname: 'Renamed',
        is_active: true,
        portfolio_percent: '30',
        fixed_amount: null,
        leverage_percent: '200',
        monthly_goal_percent: '5',
      },
    });
  });
});
