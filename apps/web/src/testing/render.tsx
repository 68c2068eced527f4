import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { RouterProvider, createBrowserRouter, createMemoryRouter } from 'react-router';
import { AppProvider } from '../app/provider';
import { routes } from '../app/routes';
import { setNavigator } from '../lib/navigation';
import { useSession } from '../lib/session-store';

export function createTestQueryClient() {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
}

/**
 * Renders the real route table at a path, with real providers (bulletproof-react style).
 * A browser router on happy-dom's history, wired like the app, so the API client's 401
 * redirect reads and changes the same location.
 */
export function renderApp(path: string) {
  window.history.replaceState(null, '', path);
  const router = createBrowserRouter(routes);
  setNavigator((to) => void router.navigate(to, { replace: true }));
  const utils = render(
    <AppProvider queryClient={createTestQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return {
    ...utils,
    router,
    location: () => `${router.state.location.pathname}${router.state.location.search}`,
  };
}

/** One component with the real providers, inside a router so its links work. */
export function renderWithProviders(ui: ReactElement) {
  const router = createMemoryRouter([{ path: '*', element: ui }]);
  return render(
    <AppProvider queryClient={createTestQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
}

export const testUser = {
  id: 'u_1',
  email: 'ada@example.com',
  role: 'user',
  useTwoFa: false,
  accountStatus: 'active',
  createdAt: '2025-01-02T10:00:00.000Z',
  updatedAt: '2025-01-02T10:00:00.000Z',
};

/** Logs a user in through the store (and so into storage), as a previous visit would have. */
export function loginAs(overrides: Record<string, unknown> = {}) {
  useSession
    .getState()
    .setSession({ user: { ...testUser, ...overrides }, token: 'tok_test', refreshToken: 'ref_test' });
}
