// Screenshots of the trading screens in both themes, for looking at (apps/web/screenshots/trading/):
// accounts, strategies, the bots list, every wizard step and BotDetail with real trades.
// Each page is also checked like any other: no console error, no failed call.
// About a minute, so only on demand (the suite stays under 3 minutes; trading.e2e.ts covers the
// journeys): E2E_SCREENSHOTS=1 npx vitest run --project e2e trading-screens
import type { Page } from 'playwright-core';
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

interface Fixture {
  trader: TestUser;
  botId: string;
}
let fixture: Fixture | undefined;

async function post<T>(trader: TestUser, path: string, body: unknown): Promise<T> {
  const response = await callApi<Envelope<T>>(path, { token: trader.apiToken, body });
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body.results;
}

/** A trader with two paper accounts, two strategies, three bots and a closed then an open trade. */
async function arrange(): Promise<Fixture> {
  if (fixture) return fixture;
  const trader = await registerUser();
  const spot = await post<{ id: string }>(trader, '/api/trading-accounts', {
    nickname: 'Paper spot',
    exchange: 'paper',
    marketType: 'spot',
    startingBalance: '25000',
  });
  const futures = await post<{ id: string }>(trader, '/api/trading-accounts', {
    nickname: 'Paper futures',
    exchange: 'paper',
    marketType: 'future',
  });
  const key = `screens-${Date.now()}`;
  const trend = await post<{ id: string; webhookSecret: string }>(trader, '/api/strategies', {
    nickname: 'BTC trend',
    strategyKey: key,
    tradeCurrency: 'BTC',
    timeFrame: '4h',
    takeProfits: [
      { percent: '1.5', sizePercent: '50' },
      { percent: '3', sizePercent: '30' },
      { percent: '6', sizePercent: '20' },
    ],
    stopLossPercent: '2.5',
  });
  await post(trader, '/api/strategies', {
    nickname: 'ETH range',
    tradeCurrency: 'ETH',
    timeFrame: '1h',
    status: 'paused',
    takeProfits: [{ percent: '2', sizePercent: '100' }],
  });
  const bot = await post<{ id: string }>(trader, '/api/bots', {
    nickname: 'BTC follower',
    is_active: true,
    strategy_id: trend.id,
    trading_account_id: futures.id,
    portfolio_percent: '30',
    leverage_percent: '300',
    monthly_goal_percent: '5',
  });
  await post(trader, '/api/bots', {
    nickname: 'BTC spot DCA',
    is_active: false,
    strategy_id: trend.id,
    trading_account_id: spot.id,
    fixed_amount: '500',
  });
  await post(trader, '/api/bots', {
    nickname: 'Steady half',
    is_active: true,
    strategy_id: trend.id,
    trading_account_id: spot.id,
    portfolio_percent: '50',
  });

  const signal = (action: string) =>
    callApi('/webhooks/tradingview', { body: { strategyKey: key, secret: trend.webhookSecret, action } });
  const trades = async () =>
    (
      await callApi<Envelope<Array<{ status: string }>>>(`/api/bots/${bot.id}/trades`, {
        token: trader.apiToken,
      })
    ).body.results;
  const waitFor = async (ready: (rows: Array<{ status: string }>) => boolean) => {
    for (let attempt = 0; attempt < 40 && !ready(await trades()); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  await signal('long');
  await waitFor((rows) => rows.some((row) => row.status === 'open'));
  await signal('exit');
  await waitFor((rows) => rows.length > 0 && rows.every((row) => row.status === 'closed'));
  await signal('short');
  await waitFor((rows) => rows.some((row) => row.status === 'open'));

  fixture = { trader, botId: bot.id };
  return fixture;
}

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(150); // transitions end before the picture
}

describe.skipIf(!process.env.E2E_SCREENSHOTS)('trading screens', () => {
  for (const theme of ['dark', 'light'] as const) {
    it(`accounts, strategies and bots in the ${theme} theme`, async () => {
      const { trader } = await arrange();
      const page = await web.newPage({ theme, session: trader });
      const shot = async (name: string, fullPage = false) => {
        await settle(page);
        await screenshot(page, `trading/${name}-${theme}`, { fullPage });
      };

      await page.goto(appUrl('/accounts'));
      await page.getByRole('row', { name: /Paper futures/ }).waitFor();
      await shot('accounts');
      await page.getByRole('button', { name: 'Connect an account' }).click();
      await shot('accounts-connect');
      await page.getByRole('dialog').getByLabel('Venue').selectOption('binance');
      await shot('accounts-connect-exchange');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Delete Paper spot' }).click();
      await shot('accounts-delete');
      await page.keyboard.press('Escape');

      await page.goto(appUrl('/bots'));
      await page.getByRole('link', { name: 'BTC follower' }).waitFor();
      await shot('bots');
      await page.getByRole('tab', { name: 'Strategies' }).click();
      await page.getByRole('row', { name: /ETH range/ }).waitFor();
      await shot('strategies');
      await page.getByRole('button', { name: 'Webhook of BTC trend' }).click();
      await shot('strategy-webhook');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Edit BTC trend' }).click();
      await shot('strategy-edit');
      await page.keyboard.press('Escape');
    });

    it(`every wizard step in the ${theme} theme`, async () => {
      const { trader } = await arrange();
      const page = await web.newPage({ theme, session: trader });
      await page.goto(appUrl('/bots'));
      await page.getByRole('button', { name: 'New bot' }).click();
      const wizard = page.getByRole('dialog', { name: 'Create a bot' });
      const step = async (index: number, name: string) => {
        await settle(page);
        await screenshot(page, `trading/wizard-${index}-${name}-${theme}`);
      };
      const next = () => wizard.getByRole('button', { name: 'Next' }).click();

      await next();
      await step(1, 'name-required');
      await wizard.getByLabel('Name').fill('ETH scalper');
      await next();
      await wizard.getByRole('radio', { name: /Paper spot/ }).check();
      await step(2, 'account');
      await next();
      await wizard.getByRole('radio', { name: /BTC trend/ }).check();
      await step(3, 'strategy');
      await next();
      await wizard.getByLabel('Monthly goal').fill('4');
      await step(4, 'config');
      await next();
      await wizard.getByLabel('Share of the account', { exact: true }).fill('60');
      await next();
      await step(5, 'volume-over-allocated');
      await wizard.getByRole('radio', { name: /Fixed amount/ }).check();
      await wizard.getByLabel('Amount per trade').fill('1500');
      await step(5, 'volume');
      await next();
      await step(6, 'release');
      await next();
      await step(7, 'review');
      await wizard.getByRole('button', { name: 'Cancel' }).click();
    });

    it(`BotDetail with its trades in the ${theme} theme`, async () => {
      const { trader, botId } = await arrange();
      const page = await web.newPage({ theme, session: trader });
      await page.goto(appUrl(`/bot/${botId}`));
      await page.getByRole('table', { name: 'Trades' }).getByText('Closed').waitFor();
      await screenshot(page, `trading/bot-detail-${theme}`);
      await page.getByRole('button', { name: 'Stop', exact: true }).click();
      await settle(page);
      await screenshot(page, `trading/bot-stop-${theme}`);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      await settle(page);
      await screenshot(page, `trading/bot-edit-${theme}`, { fullPage: true });
    });
  }

  it('the bots list and wizard in French at 1023 px, and BotDetail at 390 px', async () => {
    const { trader, botId } = await arrange();
    const page = await web.newPage({ session: trader, language: 'fr-FR', width: 1023, height: 800 });
    await page.goto(appUrl('/bots'));
    await page.getByRole('link', { name: 'BTC follower' }).waitFor();
    await settle(page);
    await screenshot(page, 'trading/bots-fr-1023');
    await page.getByRole('button', { name: 'Nouveau bot' }).click();
    await page.getByRole('dialog').getByLabel('Nom').fill('Bot FR');
    await page.getByRole('button', { name: 'Suivant' }).click();
    await settle(page);
    await screenshot(page, 'trading/wizard-fr-1023');

    const phone = await web.newPage({ session: trader, width: 390, height: 844 });
    await phone.goto(appUrl(`/bot/${botId}`));
    await phone.getByRole('table', { name: 'Trades' }).getByText('Closed').waitFor();
    await settle(phone);
    await screenshot(phone, 'trading/bot-detail-390', { fullPage: true });
  });
});
