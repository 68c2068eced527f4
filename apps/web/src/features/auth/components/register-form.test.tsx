import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../testing/fetch-mock';
import { renderApp } from '../../../testing/render';

/** Fills the form as Ada would, with a good password, and sends it. */
async function fillAndSubmit(email = 'ada@example.com') {
  await userEvent.type(await screen.findByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
  await userEvent.type(screen.getByLabelText('Confirm password'), 'correct horse');
  await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
}

describe('Register screen', () => {
  it('checks the form with the messages of spec §5', async () => {
    mockFetch();
    renderApp('/register');
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'short');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'different');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByText('Passwords must match')).toBeTruthy();
  });

  it('registers, then sends the user to Login with a confirmation', async () => {
    const { requests } = mockFetch(() => ({
      status: 201,
      body: { success: true, results: { id: 'u1', email: 'ada@example.com' } },
    }));
    const app = renderApp('/register');
    await fillAndSubmit();
    await waitFor(() => expect(app.location()).toBe('/login'));
    expect(requests[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'correct horse',
      confirm_password: 'correct horse',
    });
    expect(await screen.findByText('Your account is ready. Log in to continue.')).toBeTruthy();
  });

  it('sends the setup token given under "First admin?" (issue 20)', async () => {
    const { requests } = mockFetch(() => ({
      status: 201,
      body: { success: true, results: { id: 'u1', email: 'ops@example.com' } },
    }));
    renderApp('/register');
    await userEvent.type(await screen.findByLabelText('Email'), 'ops@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'correct horse');
    await userEvent.click(screen.getByText('First admin?'));
    await userEvent.type(screen.getByLabelText('Setup token'), '  kst_from-the-log  ');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.body).toEqual({
      email: 'ops@example.com',
      password: 'correct horse',
      confirm_password: 'correct horse',
      setupToken: 'kst_from-the-log',
    });
  });

  it('sends the invite of the link it was opened from, and says the user was invited (issue 20)', async () => {
    const { requests } = mockFetch(() => ({
      status: 201,
      body: { success: true, message: 'Account created. Log in to continue.' },
    }));
    const app = renderApp('/register?invite=kinv_from-the-admin');
    expect(await screen.findByText(/You were invited/)).toBeTruthy();
    await fillAndSubmit();
    await waitFor(() => expect(app.location()).toBe('/login'));
    expect(requests[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'correct horse',
      confirm_password: 'correct horse',
      inviteToken: 'kinv_from-the-admin',
    });
  });

  it('says registration is by invitation when the server refuses without an invite', async () => {
    mockFetch(() => ({
      status: 403,
      body: {
        success: false,
        error: 'REGISTRATION_CLOSED',
        message: 'Registration is by invitation only: ask the administrator for an invite link',
      },
    }));
    renderApp('/register');
    await fillAndSubmit();
    expect((await screen.findByRole('alert')).textContent).toMatch(/by invitation only/);
  });

  it("shows 'Invalid response from server' for an unreadable answer", async () => {
    mockFetch(() => ({ status: 200, body: 'ok' }));
    renderApp('/register');
    await fillAndSubmit();
    expect(await screen.findByText('Invalid response from server')).toBeTruthy();
  });
});
