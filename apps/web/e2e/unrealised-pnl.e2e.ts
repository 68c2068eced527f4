// Issue 21 in a browser, against the real server and its paper venue: open trades show the current price
// and the unrealised PnL (trade detail, Trading's open trades, the bot's open trade, the Dashboard's open
// positions), and the push and close confirmations the estimated result of doing it now. Pictures at
// 1280 px on demand: E2E_SCREENSHOTS=1 npx vitest run --project e2e unrealised
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

/** `POST path` as `user`: the results, once the server accepted it. */
const post = async <T>(user: TestUser, path: string, body: unknown) => {
  const { status, body: answer } = await callApi<Envelope<T>>(path, { token: user.apiToken, body });
  if (status >= 300) throw new Error(`${path}: ${status} ${JSON.stringify(answer)}`);
  return answer.results;
};

/** A manual spot long with a ladder, and a 5× futures bot holding a long opened by a signal. */
async function arrange() {
  const user = await registerUser();
  const spot = await post<{ id: string }>(user, '/api/trading-accounts', {
    nickname: 'Paper spot',
    exchange: 'paper',
    marketType: 'spot',
    startingBalance: '25000',
  });
  const futures = await post<{ id: string }>(user, '/api/trading-accounts', {
    nickname: 'Paper futures',
    exchange: 'paper',
    marketType: 'future',
    startingBalance: '25000',
  });
  const manual = await post<{ trade: { id: string } }>(user, '/api/trades', {
    accountId: spot.id,
    symbol: 'BTC/USDT',
    side: 'long',
    amount: '0.02',
    takeProfits: [
      { percent: '2', sizePercent: '50' },
      { percent: '4', sizePercent: '50' },
    ],
    stopLossPercent: '5',
    breakEvenAfterTp1: false,
  });
  const strategyKey = `marks-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const strategy = await post<{ id: string; webhookSecret: string }>(user, '/api/strategies', {
    nickname: 'BTC perp',
    strategyKey,
    tradeCurrency: 'BTC',
    timeFrame: '1h',
  });
  const bot = await post<{ id: string }>(user, '/api/bots', {
    nickname: 'BTC 5x',
    is_active: true,
    strategy_id: strategy.id,
    trading_account_id: futures.id,
    portfolio_percent: '10',
    leverage_percent: '500',
  });
  const signal = await callApi('/webhooks/tradingview', {
    body: { strategyKey, secret: strategy.webhookSecret, action: 'long', id: 'long-1' },
  });
  expect(signal.status, JSON.stringify(signal.body)).toBe(200);
  const deadline = Date.now() + 15_000;
  let botTradeId: string | undefined;
  while (!botTradeId) {
    const trades = await callApi<Envelope<Array<{ id: string; status: string; currentPrice?: string }>>>(
      `/api/bots/${bot.id}/trades`,
      { token: user.apiToken },
    );
    botTradeId = trades.body.results.find((t) => t.status === 'open' && t.currentPrice)?.id;
    if (Date.now() > deadline) throw new Error(`no bot trade: ${JSON.stringify(trades.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { user, manualId: manual.trade.id, botId: bot.id, botTradeId };
}

async function settle(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(300);
}

describe('open trades at the last price', () => {
  it('shows the current price and unrealised PnL, and the estimates in the confirmations', async () => {
    const { user, manualId, botId, botTradeId } = await arrange();
    const shots = !!process.env.E2E_SCREENSHOTS;
    const page = await web.newPage({ session: user, height: 900 });

    await page.goto(appUrl(`/trade/${manualId}`));
    await page.getByText('Unrealised PnL').waitFor();
    await page.getByText('Current price').waitFor();
    await settle(page);
    if (shots) await screenshot(page, 'unrealised/trade-detail-spot', { fullPage: true });

    await page.getByRole('button', { name: 'Push to market (TP1)' }).click();
    const push = page.getByRole('alertdialog');
    await push.getByText('Estimated result now').waitFor();
    expect(await push.innerText()).toMatch(/≈ [+-][\d,]+\.\d{2} USDT/);
    await settle(page);
    if (shots) await screenshot(page, 'unrealised/push-confirm');
    await push.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Close now' }).click();
    const close = page.getByRole('alertdialog');
    await close.getByText('Estimated result now').waitFor();
    await settle(page);
    if (shots) await screenshot(page, 'unrealised/close-confirm');
    await close.getByRole('button', { name: 'Cancel' }).click();

    await page.goto(appUrl(`/trade/${botTradeId}`));
    await page.getByText('on margin').waitFor();
    await settle(page);
    if (shots) await screenshot(page, 'unrealised/trade-detail-futures', { fullPage: true });

    await page.goto(appUrl('/trading'));
    await page.getByRole('table', { name: 'Open trades' }).getByText('on margin').waitFor();
    await settle(page);
    if (shots) await screenshot(page, 'unrealised/trading', { fullPage: true });

    await page.goto(appUrl(`/bot/${botId}`));
    await page.getByRole('link', { name: /Open trade on BTC\/USDT/ }).waitFor();
    await settle(page);
    if (shots) await screenshot(page, 'unrealised/bot-detail', { fullPage: true });

    await page.goto(appUrl('/dashboard'));
    await page.getByRole('table', { name: 'Open positions' }).getByText('on margin').waitFor();
    await settle(page);
    if (shots) await screenshot(page, 'unrealised/dashboard', { fullPage: true });
  });
});
