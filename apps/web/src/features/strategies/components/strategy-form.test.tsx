import type { Strategy } from '@kairos/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, loadLaterTexts } from '../../../i18n';
import { mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderWithProviders } from '../../../testing/render';
import { StrategiesPanel } from './strategies-panel';

function serverStrategy(overrides: Partial<Strategy> = {}): Strategy {
  return {
    id: 'st-1',
    nickname: 'Trend BTC',
    strategyKey: 'trend-btc',
    tradeCurrency: 'BTC',
    stableCoin: 'USDT',
    timeFrame: '1h',
    status: 'active',
    takeProfits: [],
    stopLossPercent: '2',
    breakEvenAfterTp1: true,
    maxLagSeconds: 300,
    priceTolerancePercent: 2,
    stopLimitOffsetPercent: 1.25,
    isPublic: false,
    isOwner: true,
    webhookSecret: 'secret',
    webhookUrl: 'http://localhost/webhooks/trend-btc',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function open(strategies: Strategy[] = []) {
  const server = mockFetch((request) => {
    if (request.path === '/api/strategies' && request.method === 'GET')
      return { body: { success: true, results: strategies } };
    if (request.path.startsWith('/api/strategies') && request.method !== 'GET')
      return { body: { success: true, results: serverStrategy(request.body as Partial<Strategy>) } };
    return undefined;
  });
  loginAs();
  renderWithProviders(<StrategiesPanel />);
  return server;
}

// The bots route loads these texts with its screen; the panel is rendered here on its own.
beforeAll(() => loadLaterTexts('strategies'));

describe('strategy form: the stop-limit offset', () => {
  it('starts at 0.5 %, says what it does, refuses a value outside 0.05–10 % and sends the one typed', async () => {
    const { requests } = open();
    await userEvent.click((await screen.findAllByRole('button', { name: 'New strategy' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New strategy' });
    const offset = within(dialog).getByLabelText('Stop-limit offset');
    expect((offset as HTMLInputElement).value).toBe('0.5');
    expect(within(dialog).getByText(/the sell order works this far below it/)).toBeTruthy();

    await userEvent.type(within(dialog).getByLabelText('Name'), 'Trend');
    await userEvent.clear(offset);
    await userEvent.type(offset, '12');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create strategy' }));
    expect(await within(dialog).findByText('Enter a percentage from 0.05 to 10')).toBeTruthy();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await userEvent.clear(offset);
    await userEvent.type(offset, '0.04');
    expect(within(dialog).getByText('Enter a percentage from 0.05 to 10')).toBeTruthy();
    await userEvent.clear(offset);
    await userEvent.type(offset, '0.8');
    await waitFor(() => expect(within(dialog).queryByText('Enter a percentage from 0.05 to 10')).toBeNull());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create strategy' }));
    await waitFor(() => expect(requests.filter((r) => r.method === 'POST')).toHaveLength(1));
    expect(requests.find((r) => r.method === 'POST')?.body).toMatchObject({
      nickname: 'Trend',
      stopLimitOffsetPercent: 0.8,
    });
  });

  it('edits the strategy’s own offset, typed the French way', async () => {
    await changeLanguage('fr-FR');
    const { requests } = open([serverStrategy()]);
    // The table's button (below 640 px the same strategy is a card with its own).
    const table = await screen.findByRole('table', { name: 'Stratégies' });
    const card = within(screen.getByRole('list', { name: 'Stratégies' })).getByRole('article', {
      name: 'Trend BTC',
    });
    expect(within(card).getByRole('button', { name: 'Modifier Trend BTC' })).toBeTruthy();
    expect(card.textContent).toContain('Take-profits');
    await userEvent.click(within(table).getByRole('button', { name: 'Modifier Trend BTC' }));
    const dialog = await screen.findByRole('dialog', { name: 'Modifier Trend BTC' });
    const offset = within(dialog).getByLabelText('Écart du stop-limit');
    expect((offset as HTMLInputElement).value).toBe('1.25');
    // Time frames as French writes them.
    expect(
      within(within(dialog).getByLabelText('Unité de temps')).getByRole('option', { name: '1\u00a0j' }),
    ).toBeTruthy();
    await userEvent.clear(offset);
    await userEvent.type(offset, '2,5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(1));
    expect(requests.find((r) => r.method === 'PUT')?.body).toMatchObject({ stopLimitOffsetPercent: 2.5 });
  });
});
