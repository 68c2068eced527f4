import type { LedgerAdjustmentListItem } from '@kairos/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';

const ANN = '11111111-1111-4111-8111-111111111111';
const BEN = '22222222-2222-4222-8222-222222222222';
const refund: LedgerAdjustmentListItem = {
  id: 7,
  userId: BEN,
  userEmail: 'ben@example.com',
  kind: 'adjustment',
  amount: '-120.5',
  currency: 'USDT',
  note: 'Refund of a double-booked fee',
  effectiveAt: '2026-11-20T10:00:00.000Z',
  bookedAt: '2026-11-20T10:00:00.000Z',
};
const user = (userId: string, email: string) => ({
  userId,
  email,
  plan: null,
  currentMonth: { year: 2026, month: 11, profit: '0', highWaterMark: '0', estimatedFee: '0' },
  latestInvoice: null,
});

describe('Admin → Ledger adjustments (issue 19)', () => {
  it('lists the adjustments, checks the form, and books one only once confirmed', async () => {
    let booked: LedgerAdjustmentListItem | null = null;
    const { requests } = mockFetch((request) => {
      if (request.path === '/admin/billing/users')
        return {
          body: {
            success: true,
            results: [user(ANN, 'ann@example.com'), user(BEN, 'ben@example.com')],
            total: 2,
            skip: 0,
            take: 200,
          },
        };
      if (request.path === '/admin/ledger/adjustments' && request.method === 'GET') {
        const results = booked ? [booked, refund] : [refund];
        return { body: { success: true, results, total: results.length, skip: 0, take: 25 } };
      }
      if (request.path === '/admin/ledger/adjustments' && request.method === 'POST') {
        const body = request.body as { userId: string; amount: string; currency: string; reason: string };
        booked = {
          ...refund,
          id: 8,
          userId: body.userId,
          userEmail: 'ann@example.com',
          amount: body.amount,
          currency: body.currency,
          note: body.reason,
        };
        const { userEmail: _email, ...created } = booked;
        return { status: 201, body: { success: true, results: created } };
      }
      return undefined;
    });
    loginAs({ role: 'admin' });
    renderApp('/admin/ledger');
    await screen.findByRole('heading', { name: 'Ledger adjustments', level: 1 }, { timeout: 5000 });
    const table = await screen.findByRole('table', { name: 'Ledger adjustments' });
    const [first] = within(table).getAllByRole('row').slice(1);
    expect(within(first!).getByText('ben@example.com')).toBeTruthy();
    expect(within(first!).getByText('Refund of a double-booked fee')).toBeTruthy();
    expect(within(first!).getByText(/120\.50/)).toBeTruthy();

    // Nothing chosen or typed: every field says what it needs, and nothing is sent.
    const submit = screen.getByRole('button', { name: 'Add adjustment' });
    await userEvent.clear(screen.getByLabelText('Currency'));
    await userEvent.click(submit);
    expect(await screen.findByText('Please choose a user')).toBeTruthy();
    expect(screen.getByText('Please enter a valid amount')).toBeTruthy();
    expect(screen.getByText('Please enter a currency code such as USDT')).toBeTruthy();
    expect(screen.getByText('A reason is required for an adjustment')).toBeTruthy();

    await userEvent.selectOptions(await screen.findByLabelText('User'), 'ann@example.com');
    await userEvent.type(screen.getByLabelText('Amount'), '0');
    await userEvent.type(screen.getByLabelText('Currency'), 'usdt');
    await userEvent.type(screen.getByLabelText('Reason'), 'Goodwill credit');
    await userEvent.click(submit);
    expect(await screen.findByText('An adjustment cannot be zero')).toBeTruthy();

    await userEvent.clear(screen.getByLabelText('Amount'));
    await userEvent.type(screen.getByLabelText('Amount'), '25.5');
    await userEvent.click(submit);
    // Asked first, in one sentence: cancelling sends nothing.
    let dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toMatch(
      /\+25\.50 USDT will be booked on the profit ann@example\.com is billed on/,
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    await userEvent.click(submit);
    dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Book adjustment' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'POST')).toBe(true));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      userId: ANN,
      amount: '25.5',
      currency: 'USDT',
      reason: 'Goodwill credit',
    });
    expect(await within(table).findByText('Goodwill credit')).toBeTruthy();
  });
});
