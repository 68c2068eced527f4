import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';
import { parseCap } from './quota-form';

const defaults = { maxStrategies: 50, maxTradingAccounts: 20, maxBots: 200, maxEventStreams: 10 };

describe('Admin → User limits', () => {
  it('shows the caps and saves them all at once', async () => {
    const { requests } = mockFetch((request) =>
      request.path === '/admin/settings/quotas'
        ? {
            body: {
              success: true,
              results: request.method === 'PUT' ? { ...defaults, maxBots: 25 } : defaults,
            },
          }
        : undefined,
    );
    loginAs({ role: 'admin' });
    renderApp('/admin/limits');
    await screen.findByRole('heading', { name: 'User limits', level: 1 }, { timeout: 5000 });
    const bots = await screen.findByLabelText('Bots');
    expect((bots as HTMLInputElement).value).toBe('200');

    await userEvent.clear(bots);
    await userEvent.type(bots, '0');
    await userEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByText('Enter a whole number from 1 to 100,000')).toBeTruthy();
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(0);

    await userEvent.clear(bots);
    await userEvent.type(bots, '25');
    await userEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    await screen.findByText('Limits saved');
    const put = requests.find((r) => r.method === 'PUT')!;
    expect(put.body).toEqual({ ...defaults, maxBots: 25 });
  });

  it('reads whole numbers from 1 to 100,000 only', () => {
    expect(parseCap(' 12 ')).toBe(12);
    for (const bad of ['0', '-1', '1.5', '100001', 'ten', '']) expect(parseCap(bad)).toBeUndefined();
  });
});
