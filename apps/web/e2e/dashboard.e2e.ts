// Issue 8 in a browser, against the real server and its worker: the Dashboard open while TradingView
// signals open and close a trade updates by itself (live events over SSE, no reload); then, on
// demand (E2E_SCREENSHOTS=1), pictures of the Dashboard (empty and with data) and the Portfolio in
// both themes, in apps/web/screenshots/dashboard/.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  type Envelope,
  type TestUser,
  appUrl,
  callApi,
  registerUser,
  screenshot,
  setupBrowser,
} from './support';

const web = setupBrowser();

interface Trader {
  user: TestUser;
  signal: (action: 'long' | 'short' | 'exit') => Promise<void>;
  /** Waits until the bot's trades (newest first) satisfy `ready`. */
  tradesUntil: (ready: (trades: Array<{ status: string }>) => boolean) => Promise<void>;
}

async function post<T>(user: TestUser, path: string, body: unknown): Promise<T> {
  const response = await callApi<Envelope<T>>(path, { token: user.apiToken, body });
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body.results;
}

/** A trader with a paper account, a strategy without take-profits (exits come from signals) and an active bot. */
async function arrangeTrader(options: { accounts?: 1 | 2 } = {}): Promise<Trader> {
  const user = await registerUser();
  const spot = await post<{ id: string }>(user, '/api/trading-accounts', {
    nickname: 'Paper spot',
    exchange: 'paper',
    marketType: 'spot',
    startingBalance: '25000',
  });
  if (options.accounts === 2) {
    await post(user, '/api/trading-accounts', {
      nickname: 'Paper reserve',
      exchange: 'paper',
      marketType: 'spot',
      startingBalance: '8000',
    });
  }
  const strategyKey = `live-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const strategy = await post<{ id: string; webhookSecret: string }>(user, '/api/strategies', {
    nickname: 'BTC swing',
    strategyKey,
    tradeCurrency: 'BTC',
    timeFrame: '1h',
  });
  const bot = await post<{ id: string }>(user, '/api/bots', {
    nickname: 'BTC follower',
    is_active: true,
    strategy_id: strategy.id,
    trading_account_id: spot.id,
    portfolio_percent: '20',
  });
  let signals = 0;
  return {
    user,
    async signal(action) {
      const response = await callApi('/webhooks/tradingview', {
        // Its own id: the server drops a signal identical to one sent in the same minute.
        body: { strategyKey, secret: strategy.webhookSecret, action, id: `${action}-${++signals}` },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    },
    async tradesUntil(ready) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const response = await callApi<Envelope<Array<{ status: string }>>>(`/api/bots/${bot.id}/trades`, {
          token: user.apiToken,
        });
        if (ready(response.body.results)) return;
        if (Date.now() > deadline)
          throw new Error(`trades never got there: ${JSON.stringify(response.body)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
  };
}

/** A metric's figure: the region is named by its label (e.g. "Closed trades"). */
function metricValue(page: Page, name: string): Locator {
  return page.getByRole('region', { name, exact: true }).locator('p').first();
}

async function settle(page: Page) {
  // The live stream stays open: Playwright leaves EventSource out of "network idle".
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300); // charts draw and transitions end before the picture
}

describe('dashboard', () => {
  it('updates the open Dashboard when a long then an exit signal close a trade, without reload', async () => {
    const trader = await arrangeTrader();
    const page = await web.newPage({ session: trader.user });
    await page.goto(appUrl('/dashboard'));
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const closedTrades = metricValue(page, 'Closed trades');
    const netPnl = metricValue(page, 'Net PnL');
    await closedTrades.waitFor();
    expect(await closedTrades.innerText()).toBe('0');
    expect(await netPnl.innerText()).toContain('+$0.00');
    await page.locator('[data-testid="live-status"][data-status="live"]').waitFor();
    // Anything that reloads the page loses this mark.
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    const documentRequests: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documentRequests.push(request.url());
    });

    await trader.signal('long');
    await trader.tradesUntil((trades) => trades.some((trade) => trade.status === 'open'));
    // The open trade's capital shows up by itself too.
    await page
      .getByRole('list', { name: 'Capital deployed by bot' })
      .getByText(/^\$[1-9][\d,]*\.\d{2}/)
      .first()
      .waitFor({ timeout: 15_000 });

    await trader.signal('exit');
    await expect.poll(() => closedTrades.innerText(), { timeout: 15_000 }).toBe('1');
    expect(await closedTrades.innerText()).toBe('1');
    // A round trip on the paper venue pays fees at least: the net PnL moved, with its sign.
    await expect.poll(() => netPnl.innerText(), { timeout: 5_000 }).not.toContain('$0.00');
    expect(await netPnl.innerText()).toMatch(/[+-]\$\d[\d,]*\.\d{2}/);
    expect(await metricValue(page, 'Win rate').innerText()).toMatch(/^(0|100)\.00%$/);

    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);
    expect(documentRequests).toEqual([]);
  });

  it('keeps the filters in the URL and narrows to a bot', async () => {
    const trader = await arrangeTrader({ accounts: 2 });
    const page = await web.newPage({ session: trader.user });
    await page.goto(appUrl('/dashboard'));
    const filters = page.getByRole('region', { name: 'Dashboard filters' });
    await filters.getByRole('button', { name: '7D' }).click();
    await page.waitForURL((url) => url.search === '?range=7d');
    await filters.getByLabel('Account').selectOption({ label: 'Paper spot' });
    await filters.getByLabel('Bot').selectOption({ label: 'BTC follower' });
    await page.waitForURL((url) => /^\?range=7d&account=[\w-]+&bot=[\w-]+$/.test(url.search));
    // A bot has no balance of its own: its curve is its cumulative PnL.
    await page.getByRole('heading', { name: 'Cumulative PnL' }).waitFor();
    await page.reload();
    // The bot's name is an option once the bots list has loaded again: wait for it to be the chosen one.
    await filters
      .getByLabel('Bot')
      .locator('option:checked', { hasText: 'BTC follower' })
      .waitFor({ state: 'attached' });
    expect(await filters.getByRole('button', { name: '7D' }).getAttribute('aria-pressed')).toBe('true');
    await filters.getByRole('button', { name: 'Reset filters' }).click();
    await page.waitForURL((url) => url.search === '');
  });
});

describe.skipIf(!process.env.E2E_SCREENSHOTS)('dashboard and portfolio screenshots', () => {
  let withData: Trader | undefined;
  /** Two accounts, a closed round trip and an open trade. */
  async function traderWithData(): Promise<Trader> {
    if (withData) return withData;
    const trader = await arrangeTrader({ accounts: 2 });
    await trader.signal('long');
    await trader.tradesUntil((trades) => trades.some((trade) => trade.status === 'open'));
    await trader.signal('exit');
    await trader.tradesUntil(
      (trades) => trades.length > 0 && trades.every((trade) => trade.status === 'closed'),
    );
    await trader.signal('long');
    await trader.tradesUntil((trades) => trades.some((trade) => trade.status === 'open'));
    withData = trader;
    return trader;
  }

  for (const theme of ['dark', 'light'] as const) {
    it(`Dashboard empty and with data, and Portfolio, in the ${theme} theme`, async () => {
      const newcomer = await registerUser();
      const empty = await web.newPage({ theme, session: newcomer });
      await empty.goto(appUrl('/dashboard'));
      await empty.getByText('Nothing to show yet').waitFor();
      await settle(empty);
      await screenshot(empty, `dashboard/dashboard-empty-${theme}`);
      await empty.goto(appUrl('/portfolio'));
      await empty.getByText('Your portfolio is empty').waitFor();
      await settle(empty);
      await screenshot(empty, `dashboard/portfolio-empty-${theme}`);

      const trader = await traderWithData();
      const page = await web.newPage({ theme, session: trader.user });
      await page.goto(appUrl('/dashboard'));
      await page.getByRole('list', { name: 'Capital deployed by bot' }).waitFor();
      await settle(page);
      await screenshot(page, `dashboard/dashboard-${theme}`, { fullPage: true });
      // The tooltip of the daily PnL bar: exact value, currency and trade count.
      const daily = page.getByRole('figure', { name: 'Daily PnL' });
      const box = await daily.boundingBox();
      if (box) await page.mouse.move(box.x + box.width - 70, box.y + box.height / 2);
      await page.waitForTimeout(200);
      await screenshot(page, `dashboard/dashboard-tooltip-${theme}`);

      await page.goto(appUrl('/portfolio'));
      await page.getByRole('table', { name: 'Holdings' }).waitFor();
      await settle(page);
      await screenshot(page, `dashboard/portfolio-${theme}`, { fullPage: true });
      await page.getByRole('button', { name: '1D' }).click();
      await page.waitForURL((url) => url.search === '?period=1d');
      await settle(page);
      await screenshot(page, `dashboard/portfolio-1d-${theme}`);
    });
  }

  it('the Dashboard in French, converted to EUR, at 1023 px, and at 390 px', async () => {
    const trader = await traderWithData();
    const saved = await callApi('/user/settings', {
      method: 'PUT',
      token: trader.user.apiToken,
      body: { language: 'fr-FR', currency: 'EUR' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const page = await web.newPage({ session: trader.user, language: 'fr-FR', width: 1023, height: 900 });
    await page.goto(appUrl('/dashboard'));
    await page.getByTestId('currency-conversion').waitFor();
    await settle(page);
    await screenshot(page, 'dashboard/dashboard-fr-eur-1023', { fullPage: true });
    await page.goto(appUrl('/portfolio'));
    await page.getByRole('table', { name: 'Avoirs' }).waitFor();
    await settle(page);
    await screenshot(page, 'dashboard/portfolio-fr-eur-1023', { fullPage: true });

    const phone = await web.newPage({ session: trader.user, width: 390, height: 844 });
    await phone.goto(appUrl('/dashboard'));
    await phone.getByRole('list', { name: 'Capital deployed by bot' }).waitFor();
    await settle(phone);
    await screenshot(phone, 'dashboard/dashboard-390', { fullPage: true });
  });
});
