import type { RouteObject } from 'react-router';
import { guestOnly, requireAdmin, requireAuth } from './guards';
import { loadAdminTexts, loadLaterTexts } from '../i18n';
import { recoverChunks } from '../lib/chunk-recovery';
import { HydrateFallback, RootLayout, RouteError } from './root-layout';

/** An admin screen's module, loaded with the admin screens' texts (not part of the first load). */
function adminScreen<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), loadAdminTexts()]).then(([module]) => module);
}

/**
 * The 17 screens of spec §2. Every screen is its own lazy chunk (`lazy` → one import each);
 * the guards run as loaders before the screen renders. A chunk that fails to load is tried again while the
 * server cannot be reached (lib/chunk-recovery.ts).
 */
export const routes: RouteObject[] = recoverChunks([
  {
    path: '/',
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback,
    children: [
      { index: true, lazy: () => import('./routes/home') },
      { path: 'login', loader: guestOnly, lazy: () => import('./routes/login') },
      { path: 'register', loader: guestOnly, lazy: () => import('./routes/register') },
      { path: 'forgot-password', loader: guestOnly, lazy: () => import('./routes/forgot-password') },
      // Public: the link from the mail works whether or not someone is logged in here.
      { path: 'reset-password', lazy: () => import('./routes/reset-password') },
      {
        path: 'components',
        lazy: () =>
          Promise.all([
            import('./routes/component-showcase'),
            loadLaterTexts('showcase'),
            loadLaterTexts('settings'),
          ]).then(([module]) => module),
      },
      {
        loader: requireAuth,
        lazy: () => import('./layout/app-layout'),
        children: [
          {
            path: 'dashboard',
            // The figures are asked for beside the screen's code, not after it (issue 21).
            loader: (args) => {
              requireAuth(args);
              // One that cannot start (the server away) is no error: the screen asks for them itself.
              import('../features/dashboard/api/get-dashboard')
                .then(({ startDashboardRead }) => startDashboardRead(args.request.url))
                .catch(() => undefined);
              return null;
            },
            // Its total equity speaks Portfolio's words (issue 21).
            lazy: () =>
              Promise.all([import('./routes/dashboard'), loadLaterTexts('portfolio')]).then(
                ([module]) => module,
              ),
          },
          {
            path: 'trading',
            loader: requireAuth,
            lazy: () =>
              Promise.all([import('./routes/trading'), loadLaterTexts('trading')]).then(([module]) => module),
          },
          {
            path: 'trades',
            loader: requireAuth,
            lazy: () =>
              Promise.all([import('./routes/trades'), loadLaterTexts('tradeList')]).then(
                ([module]) => module,
              ),
          },
          {
            path: 'trades/orders',
            loader: requireAuth,
            lazy: () =>
              Promise.all([import('./routes/orders'), loadLaterTexts('tradeList')]).then(
                ([module]) => module,
              ),
          },
          {
            path: 'bots',
            loader: requireAuth,
            // The strategies tab and the bot wizard's strategy step speak the strategies' texts.
            lazy: () =>
              Promise.all([import('./routes/bots'), loadLaterTexts('strategies')]).then(([module]) => module),
          },
          {
            path: 'portfolio',
            loader: requireAuth,
            lazy: () =>
              Promise.all([import('./routes/portfolio'), loadLaterTexts('portfolio')]).then(
                ([module]) => module,
              ),
          },
          {
            path: 'settings',
            loader: requireAuth,
            lazy: () =>
              Promise.all([import('./routes/settings'), loadLaterTexts('settings')]).then(
                ([module]) => module,
              ),
          },
          {
            path: 'billing',
            loader: requireAuth,
            lazy: () =>
              Promise.all([import('./routes/billing'), loadLaterTexts('billing')]).then(([module]) => module),
          },
          { path: 'accounts', loader: requireAuth, lazy: () => import('./routes/trading-accounts') },
          { path: 'bot/:id', loader: requireAuth, lazy: () => import('./routes/bot-detail') },
          { path: 'trade/:id', loader: requireAuth, lazy: () => import('./routes/trade-detail') },
          {
            path: 'admin/alerts',
            loader: requireAdmin,
            lazy: adminScreen(() => import('./routes/admin/alerts')),
          },
          {
            path: 'admin/billing',
            loader: requireAdmin,
            lazy: adminScreen(() => import('./routes/admin/billing')),
          },
          {
            path: 'admin/outbox',
            loader: requireAdmin,
            lazy: adminScreen(() => import('./routes/admin/outbox')),
          },
          {
            path: 'admin/limits',
            loader: requireAdmin,
            lazy: adminScreen(() => import('./routes/admin/limits')),
          },
          {
            path: 'admin/invites',
            loader: requireAdmin,
            lazy: adminScreen(() => import('./routes/admin/invites')),
          },
          {
            path: 'admin/ledger',
            loader: requireAdmin,
            lazy: adminScreen(() => import('./routes/admin/ledger')),
          },
          {
            path: 'admin/audit',
            loader: requireAdmin,
            lazy: adminScreen(() => import('./routes/admin/audit')),
          },
          {
            path: 'admin/billing/user/:userId',
            loader: requireAdmin,
            lazy: adminScreen(() => import('./routes/admin/user-billing-detail')),
          },
          {
            path: 'admin/trade-control',
            loader: requireAdmin,
            lazy: adminScreen(() => import('./routes/admin/trade-control')),
          },
        ],
      },
      { path: '*', lazy: () => import('./routes/not-found') },
    ],
  },
]);
