// Issue 21: axe-core on every route, in both themes — a serious or critical violation fails the suite. The
// routes are those of app/routes.ts, each with what it needs to show its content (an account, a strategy, a
// bot, a trade, a billed user, the admin). axe-core is the registry's package, run in the page as it is.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  type Envelope,
  type TestUser,
  adminUser,
  appUrl,
  callApi,
  registerUser,
  setupBrowser,
} from './support';

const web = setupBrowser();
// Evaluated through the DevTools protocol: the app's Content-Security-Policy forbids inline scripts.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** The serious and critical violations axe finds on the page as it is now, one line each. */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document, options: object) => Promise<unknown> } }
    ).axe;
    const result = (await axe.run(document, { resultTypes: ['violations'] })) as { violations: unknown[] };
    return result.violations;
  });
  return (found as AxeViolation[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (node) => `${v.impact} ${v.id} (${v.help}) at ${node.target.join(' ')}: ${node.failureSummary ?? ''}`,
      ),
    );
}

async function post<T>(user: TestUser, path: string, body: unknown, method = 'POST'): Promise<T> {
  const res = await callApi<Envelope<T>>(path, { token: user.apiToken, body, method });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body.results;
}

/** A trader with an account, a strategy, a bot, an open manual trade and a resting limit order. */
async function arrange() {
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
  return { trader, botId: bot.id, tradeId: trade.trade.id };
}

const PUBLIC_ROUTES = [
  '/',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password',
  '/components',
  '/no-such-page',
];

describe('accessibility (axe-core: no serious or critical violation)', () => {
  for (const theme of ['dark', 'light'] as const) {
    it(`every route in the ${theme} theme`, { timeout: 240_000 }, async () => {
      const { trader, botId, tradeId } = await arrange();
      const admin = await adminUser();
      const found: string[] = [];
      const check = async (session: TestUser | undefined, routes: string[]) => {
        // A full load per route opens a new event stream before the server has seen the last one go: past the
        // per-user cap (issue 20) the new stream ends the oldest, so none is refused.
        const page = await web.newPage({ theme, session });
        for (const route of routes) {
          await page.goto(appUrl(route), { waitUntil: 'networkidle' });
          await page.locator('main, [role="main"], h1').first().waitFor();
          // Skeletons gone: the screen as the user reads it.
          await page
            .waitForFunction(
              () => !document.querySelector('[role="status"][aria-busy="true"], .animate-pulse'),
              null,
              {
                timeout: 5000,
              },
            )
            .catch(() => undefined);
          for (const line of await violations(page)) found.push(`${theme} ${route}: ${line}`);
        }
      };
      await check(undefined, PUBLIC_ROUTES);
      await check(trader, [
        '/dashboard',
        '/trading',
        '/trades',
        '/trades/orders',
        '/bots',
        `/bot/${botId}`,
        `/trade/${tradeId}`,
        '/portfolio',
        '/accounts',
        '/billing',
        '/settings?tab=profile',
        '/settings?tab=security',
        '/settings?tab=notifications',
        '/settings?tab=preferences',
      ]);
      await check(admin, [
        '/admin/alerts',
        '/admin/billing',
        `/admin/billing/user/${trader.user.id}`,
        '/admin/trade-control',
        '/admin/outbox',
        '/admin/audit',
      ]);
      expect(found, found.join('\n')).toEqual([]);
    });
  }
});
