import type { OutboxMail } from '@kairos/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';

const waiting: OutboxMail = {
  id: 'mail-2',
  to: 'ada@example.com',
  subject: 'Reset your Kairos password',
  body: 'Open this link within an hour:\nhttp://localhost:3000/reset-password?token=krp_abc&email=ada%40example.com',
  status: 'waiting',
  error: null,
  createdAt: '2026-11-24T10:00:00.000Z',
  sentAt: null,
};
const failed: OutboxMail = {
  ...waiting,
  id: 'mail-1',
  to: 'bob@example.com',
  subject: 'Welcome',
  body: 'Hello',
  status: 'failed',
  error: '550 mailbox unavailable',
};

describe('Admin → Outbox', () => {
  it('lists the mail newest first with its state, and opens a reset mail to show its link', async () => {
    const { requests } = mockFetch((request) =>
      request.path === '/admin/outbox'
        ? { body: { success: true, results: [waiting, failed], total: 2, skip: 0, take: 20 } }
        : undefined,
    );
    loginAs({ role: 'admin' });
    renderApp('/admin/outbox');
    await screen.findByRole('heading', { name: 'Outbox', level: 1 }, { timeout: 5000 });
    const table = await screen.findByRole('table', { name: 'Outbox' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Message', 'To', 'Status', 'Written']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('ada@example.com')).toBeTruthy();
    expect(within(rows[0]!).getByText('Waiting')).toBeTruthy();
    expect(within(rows[1]!).getByText('Failed').getAttribute('title')).toBe('550 mailbox unavailable');
    // Below 640 px a card a mail (issue 21): when, its state, the message and to whom.
    const cards = within(screen.getByRole('list', { name: 'Outbox' })).getAllByRole('listitem');
    expect(cards[0]!.textContent).toMatch(/Waiting.*Reset your Kairos password.*To.*ada@example\.com/s);

    await userEvent.click(within(rows[0]!).getByText('Reset your Kairos password'));
    expect(within(rows[0]!).getByText(/reset-password\?token=krp_abc/).textContent).toContain(
      'Open this link',
    );
    expect(
      Object.fromEntries(
        new URL(requests.find((r) => r.path === '/admin/outbox')!.url, 'http://x').searchParams,
      ),
    ).toEqual({ skip: '0', take: '20' });
  });
});
