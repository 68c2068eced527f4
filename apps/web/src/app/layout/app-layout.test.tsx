import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useSession } from '../../lib/session-store';
import { mockFetch } from '../../testing/fetch-mock';
import { loginAs, renderApp } from '../../testing/render';

describe('app layout', () => {
  it('logs out from the user menu: POST /auth/logout, session and storage cleared, back to Login', async () => {
    const { requests } = mockFetch();
    loginAs();
    window.localStorage.setItem('theme', 'light');
    const app = renderApp('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: /Account menu/ }));
    const menu = screen.getByRole('menu');
    expect(within(menu).getByText('ada@example.com')).toBeTruthy();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Log out' }));
    await waitFor(() => expect(app.location()).toBe('/login'));
    expect(requests.some((request) => request.method === 'POST' && request.path === '/auth/logout')).toBe(
      true,
    );
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(window.localStorage.length).toBe(0);
    expect(await screen.findByRole('heading', { name: 'Log in to Kairos' })).toBeTruthy();
  });

  it('sends the user to Login when the server answers 401', async () => {
    mockFetch((request) =>
      request.path === '/api/bots' ? { status: 401, body: { message: 'Session expired' } } : undefined,
    );
    loginAs();
    const app = renderApp('/bots');
    await waitFor(() => expect(app.location()).toBe('/login?redirect=%2Fbots'));
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(await screen.findByRole('heading', { name: 'Log in to Kairos' })).toBeTruthy();
  });

  it('switches theme from the header and keeps the choice', async () => {
    mockFetch();
    loginAs();
    renderApp('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Switch to the light theme' }));
    expect(document.documentElement.getAttribute('data-theme')).toBe('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    expect(window.localStorage.getItem('theme')).toBe('light');
    await userEvent.click(screen.getByRole('button', { name: 'Switch to the dark theme' }));
    expect(document.documentElement.classList.contains('dark')).toBe(true);
  });

  it('opens the navigation drawer on small screens and closes it on navigation', async () => {
    mockFetch();
    loginAs();
    const app = renderApp('/dashboard');
    await userEvent.click(await screen.findByTestId('mobile-nav-toggle'));
    const drawer = screen.getByTestId('mobile-drawer');
    await userEvent.click(within(drawer).getByRole('link', { name: 'Bots' }));
    await waitFor(() => expect(app.location()).toBe('/bots'));
    await waitFor(() => expect(screen.queryByTestId('mobile-drawer')).toBeNull());
  });

  it('shows the Dashboard empty state with the next steps', async () => {
    mockFetch((request) =>
      request.path === '/api/dashboard'
        ? {
            body: {
              success: true,
              results: {
                equityCurve: [],
                dailyPnl: [],
                balanceByAccount: [],
                capitalByBot: [],
                metrics: { closedTrades: 0 },
              },
            },
          }
        : undefined,
    );
    loginAs();
    renderApp('/dashboard');
    expect(await screen.findByText('Nothing to show yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Connect an account' }).getAttribute('href')).toBe('/accounts');
    expect(screen.getByRole('link', { name: 'Create your first bot' }).getAttribute('href')).toBe('/bots');
  });

  it('shows an error state with a retry when a screen cannot load', async () => {
    let calls = 0;
    mockFetch((request) => {
      if (request.path !== '/api/bots') return undefined;
      calls += 1;
      return calls === 1
        ? { status: 500, body: { message: 'Failed to load bots' } }
        : { body: { success: true, results: [] } };
    });
    loginAs();
    renderApp('/bots');
    expect(await screen.findByText('Failed to load bots')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No bots yet')).toBeTruthy();
  });
});
