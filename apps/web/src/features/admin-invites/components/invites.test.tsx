import type { Invite } from '@kairos/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';

const pending: Invite = {
  id: 'inv-2',
  note: 'for Ada',
  status: 'pending',
  createdAt: '2026-11-24T10:00:00.000Z',
  expiresAt: '2026-12-01T10:00:00.000Z',
  usedAt: null,
  createdByEmail: 'ops@example.com',
  usedByEmail: null,
};
const used: Invite = {
  ...pending,
  id: 'inv-1',
  note: null,
  status: 'used',
  usedAt: '2026-11-25T08:00:00.000Z',
  usedByEmail: 'bob@example.com',
};
const LINK = 'https://kairos.example/register?invite=kinv_new-one';

describe('Admin → Invites (issue 20)', () => {
  it('lists the invite links with their state, makes one and shows its link to copy, and revokes one', async () => {
    let revoked = false;
    const { requests } = mockFetch((request) => {
      if (request.path === '/admin/invites' && request.method === 'GET')
        return {
          body: {
            success: true,
            results: [revoked ? { ...pending, status: 'revoked' } : pending, used],
            total: 2,
            skip: 0,
            take: 20,
          },
        };
      if (request.path === '/admin/invites' && request.method === 'POST')
        return {
          status: 201,
          body: { success: true, results: { ...pending, id: 'inv-3', note: 'for Cy', link: LINK } },
        };
      if (request.path === '/admin/invites/inv-2' && request.method === 'DELETE') {
        revoked = true;
        return { body: { success: true, results: { ...pending, status: 'revoked' } } };
      }
      return undefined;
    });
    loginAs({ role: 'admin' });
    renderApp('/admin/invites');
    await screen.findByRole('heading', { name: 'Invites', level: 1 }, { timeout: 5000 });
    const table = await screen.findByRole('table', { name: 'Invite links' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('for Ada')).toBeTruthy();
    expect(within(rows[0]!).getByText('Pending')).toBeTruthy();
    expect(within(rows[1]!).getByText('Used')).toBeTruthy();
    expect(within(rows[1]!).getByText('bob@example.com')).toBeTruthy();
    // Only a pending invite can be revoked.
    expect(within(rows[1]!).queryByRole('button', { name: /Revoke/ })).toBeNull();
    // Below 640 px a card a link (issue 21), with its state and its Revoke button.
    const cards = within(screen.getByRole('list', { name: 'Invite links' })).getAllByRole('listitem');
    expect(cards[0]!.textContent).toMatch(/for Ada.*Pending.*Expires/);
    expect(within(cards[0]!).getByRole('button', { name: 'Revoke the invite for Ada' })).toBeTruthy();
    expect(within(cards[1]!).getByText('bob@example.com')).toBeTruthy();

    await userEvent.type(screen.getByLabelText('For whom (only you see it)'), 'for Cy');
    await userEvent.click(screen.getByRole('button', { name: 'Create invite link' }));
    const made = await screen.findByRole('textbox', { name: 'New invite link' });
    expect((made as HTMLInputElement).value).toBe(LINK);
    expect(screen.getByRole('button', { name: 'Copy the invite link' })).toBeTruthy();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ note: 'for Cy', expiresInDays: 7 });

    await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Revoke the invite for Ada' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'DELETE')).toBe(true));
    expect(await within(table).findByText('Revoked')).toBeTruthy();
  });

  it('says why a revoke was refused', async () => {
    mockFetch((request) => {
      if (request.method === 'DELETE')
        return {
          status: 409,
          body: {
            success: false,
            error: 'INVITE_NOT_PENDING',
            message: 'This invite was already used',
            params: { variant: 'used' },
          },
        };
      if (request.path === '/admin/invites')
        return { body: { success: true, results: [pending], total: 1, skip: 0, take: 20 } };
      return undefined;
    });
    loginAs({ role: 'admin' });
    renderApp('/admin/invites');
    const table = await screen.findByRole('table', { name: 'Invite links' }, { timeout: 5000 });
    await userEvent.click(within(table).getByRole('button', { name: 'Revoke the invite for Ada' }));
    expect(await screen.findByText('This invite was already used')).toBeTruthy();
  });
});
