import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';

const LAPTOP = {
  id: '11111111-1111-4111-8111-111111111111',
  createdAt: '2026-03-01T09:00:00.000Z',
  lastUsedAt: '2026-03-02T09:00:00.000Z',
  userAgent: 'Firefox on Linux',
  ip: '203.0.113.9',
  current: true,
};
const PHONE = {
  id: '22222222-2222-4222-8222-222222222222',
  createdAt: '2026-02-20T09:00:00.000Z',
  lastUsedAt: '2026-03-01T18:30:00.000Z',
  userAgent: 'KairosPhone/1.0',
  ip: '198.51.100.4',
  current: false,
};

describe('Settings › Security › Sessions (issue 20)', () => {
  it('lists the sign-ins with "This device", and revokes another one', async () => {
    loginAs();
    let live = [LAPTOP, PHONE];
    const { requests } = mockFetch((request) => {
      if (request.method === 'GET' && request.path === '/auth/sessions')
        return { body: { success: true, results: live } };
      if (request.method === 'DELETE' && request.path === `/auth/sessions/${PHONE.id}`) {
        live = [LAPTOP];
        return { body: { success: true, message: 'Session revoked' } };
      }
      return undefined;
    });
    renderApp('/settings?tab=security');
    const list = await screen.findByRole('list', { name: 'Where you’re signed in' }, { timeout: 5000 });
    const laptop = await within(list).findByRole('listitem', { name: 'Firefox on Linux' });
    expect(within(laptop).getByText('This device')).toBeTruthy();
    // No revoke on this device (that is Log out); one on the phone.
    expect(within(laptop).queryByRole('button')).toBeNull();
    const phone = within(list).getByRole('listitem', { name: 'KairosPhone/1.0' });
    expect(within(phone).getByText(/198\.51\.100\.4/)).toBeTruthy();

    await userEvent.click(within(phone).getByRole('button', { name: 'Revoke KairosPhone/1.0' }));
    await waitFor(() => expect(within(list).queryByRole('listitem', { name: 'KairosPhone/1.0' })).toBeNull());
    expect(requests.some((r) => r.method === 'DELETE' && r.path === `/auth/sessions/${PHONE.id}`)).toBe(true);
    expect(await screen.findByText('That device is signed out.')).toBeTruthy();
  });
});
