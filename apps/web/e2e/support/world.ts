// What a trader's screens need to show their content, arranged through the API, and every route of app/routes.ts
// with it: the accessibility, phone-width and screenshot suites walk the same list (issue 21).
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { type Envelope, type TestUser, callApi, registerUser } from './api';

export async function post<T>(user: TestUser, path: string, body: unknown, method = 'POST'): Promise<T> {
  const res = await callApi<Envelope<T>>(path, { token: user.apiToken, body, method });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body.results;
}

export interface TraderWorld {
  trader: TestUser;
  accountId: string;
  botId: string;
  /** An open manual trade (BTC/USDT, long, with a stop and a take-profit). */
  tradeId: string;
}

/** A trader with a paper account, a strategy, a live bot, an open manual trade and a resting limit order. */
export async function arrangeTrader(): Promise<TraderWorld> {
  const trader = await registerUser();
  const account = await post<{ id: string }>(trader, '/api/trading-accounts', {
    nickname: 'Paper a11y',
    exchange: 'paper',
    marketType: 'spot',
    startingBalance: '25000',
  });
  const strategy = await post<{ id: string }>(trader, '/api/strategies', {
    nickname: 'A11y strategy',
    tradeCurrency: 'BTC',
    timeFrame: '1h',
  });
  const bot = await post<{ id: string }>(trader, '/api/bots', {
    nickname: 'A11y bot',
    strategy_id: strategy.id,
    trading_account_id: account.id,
    portfolio_percent: '10',
    is_active: true,
  });
  const trade = await post<{ trade: { id: string } }>(trader, '/api/trades', {
    accountId: account.id,
    symbol: 'BTC/USDT',
    side: 'long',
    amount: '0.01',
    stopLossPercent: '3',
    takeProfits: [{ percent: 2, sizePercent: 100 }],
  });
  await post(trader, '/api/trades', {
    accountId: account.id,
    symbol: 'ETH/USDT',
    side: 'long',
    amount: '0.1',
    price: '1000',
  });
  return { trader, accountId: account.id, botId: bot.id, tradeId: trade.trade.id };
}

export const PUBLIC_ROUTES = [
  '/',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password',
  '/components',
  '/no-such-page',
];

export function traderRoutes({ botId, tradeId }: Pick<TraderWorld, 'botId' | 'tradeId'>): string[] {
  return [
    '/dashboard',
    '/trading',
    '/trades',
    '/trades/orders',
    '/bots',
    '/bots?tab=strategies',
    `/bot/${botId}`,
    `/trade/${tradeId}`,
    '/portfolio',
    '/accounts',
    '/billing',
    '/settings?tab=profile',
    '/settings?tab=security',
    '/settings?tab=notifications',
    '/settings?tab=preferences',
  ];
}

export function adminRoutes(trader: TestUser): string[] {
  return [
    '/admin/alerts',
    '/admin/billing',
    `/admin/billing/user/${trader.user.id}`,
    '/admin/trade-control',
    '/admin/outbox',
    '/admin/invites',
    '/admin/audit',
  ];
}

/** Opens a route and waits for the screen as the user reads it: its main content there, skeletons gone. */
export async function openScreen(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.locator('main, [role="main"], h1').first().waitFor();
  await page
    .waitForFunction(
      () => !document.querySelector('[role="status"][aria-busy="true"], .animate-pulse'),
      null,
      {
        timeout: 5000,
      },
    )
    .catch(() => undefined);
}
