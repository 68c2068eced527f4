import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEYS, useSession } from '../lib/session-store';
import { mockFetch } from '../testing/fetch-mock';
import { loginAs, renderApp, testUser } from '../testing/render';

const PROTECTED = [
  '/dashboard',
  '/trading',
  '/bots',
  '/portfolio',
  '/settings',
  '/accounts',
  '/bot/42',
  '/trade/7',
];
const ADMIN = [
  '/admin/alerts',
  '/admin/billing',
  '/admin/billing/user/u_9',
  '/admin/trade-control',
  '/admin/outbox',
  '/admin/invites',
  '/admin/ledger',
];

async function settledAt(app: ReturnType<typeof renderApp>, expected: string) {
  await waitFor(() => expect(app.location()).toBe(expected));
}

describe('route guards (spec §2)', () => {
  it.each([...PROTECTED, ...ADMIN])(
    'sends a visitor from %s to Login with the path as redirect',
    async (path) => {
      mockFetch();
      const app = renderApp(path);
      await settledAt(app, `/login?redirect=${encodeURIComponent(path)}`);
      expect(await screen.findByRole('heading', { name: 'Log in to Kairos' })).toBeTruthy();
    },
  );

  it('keeps the query string of the intended path in the redirect', async () => {
    mockFetch();
    const app = renderApp('/bots?page=2&status=open');
    await settledAt(app, `/login?redirect=${encodeURIComponent('/bots?page=2&status=open')}`);
    expect(new URLSearchParams(app.router.state.location.search).get('redirect')).toBe(
      '/bots?page=2&status=open',
    );
  });

  it('restores the stored token before checking access', async () => {
    mockFetch();
    // A previous visit left a session in storage; memory starts empty, as after a reload.
    window.localStorage.setItem(SESSION_STORAGE_KEYS.token, 'tok_stored');
    window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(testUser));
    expect(useSession.getState().token).toBeNull();
    const app = renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Dashboard', level: 1 })).toBeTruthy();
    expect(app.location()).toBe('/dashboard');
    expect(useSession.getState()).toMatchObject({ token: 'tok_stored', isAuthenticated: true });
  });

  it.each(PROTECTED)('lets a logged-in user open %s', async (path) => {
    mockFetch();
    loginAs();
    const app = renderApp(path);
    await waitFor(() => expect(screen.getAllByRole('heading', { level: 1 }).length).toBeGreaterThan(0));
    expect(app.location()).toBe(path);
  });

  it.each(['/login', '/register', '/login?redirect=%2Fbots'])(
    'sends a logged-in user from %s to the Dashboard',
    async (path) => {
      mockFetch();
      loginAs();
      const app = renderApp(path);
      await settledAt(app, '/dashboard');
    },
  );

  it.each(ADMIN)('sends a non-admin from %s to the Dashboard', async (path) => {
    mockFetch();
    loginAs({ role: 'user' });
    const app = renderApp(path);
    await settledAt(app, '/dashboard');
  });

  it.each(ADMIN)('lets an admin open %s', async (path) => {
    mockFetch();
    loginAs({ role: 'admin' });
    const app = renderApp(path);
    await waitFor(() => expect(screen.getAllByRole('heading', { level: 1 }).length).toBeGreaterThan(0));
    expect(app.location()).toBe(path);
  });

  it('treats the isAdmin flag as the admin role', async () => {
    mockFetch();
    loginAs({ role: undefined, isAdmin: true });
    const app = renderApp('/admin/alerts');
    expect(await screen.findByRole('heading', { name: 'Alerts', level: 1 })).toBeTruthy();
    expect(app.location()).toBe('/admin/alerts');
  });

  it.each(['/nope', '/admin', '/bot', '/dashboard/extra'])(
    'shows NotFound for %s, to visitors too',
    async (path) => {
      mockFetch();
      const app = renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
      expect(app.location()).toBe(path);
      expect(screen.getByRole('link', { name: 'Back to the home page' }).getAttribute('href')).toBe('/');
    },
  );

  it.each([
    ['/', 'Your TradingView signals, traded by bots you own.'],
    ['/components', 'Components'],
    ['/register', 'Create your account'],
  ])('lets a visitor see %s', async (path, heading) => {
    mockFetch();
    const app = renderApp(path);
    expect(await screen.findByRole('heading', { name: heading, level: 1 })).toBeTruthy();
    expect(app.location()).toBe(path);
  });

  it('shows the admin section of the navigation only to admins', async () => {
    mockFetch();
    loginAs({ role: 'user' });
    const app = renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    expect(screen.queryByRole('link', { name: 'Trade control' })).toBeNull();
    app.unmount();

    loginAs({ role: 'admin' });
    renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    expect(screen.getAllByRole('link', { name: 'Trade control' }).length).toBeGreaterThan(0);
  });
});
