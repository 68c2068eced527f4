// Issue 21: the time zone the user chose is the one every screen reads a trade's times in. One bot trade, opened
// by a signal on the paper venue with its take-profit resting, is looked at in Asia/Tokyo (UTC+9, the browser
// being in another zone) on each screen that says when it happened: trade detail (opened, and its orders in the
// timeline), the bot's trades table, the Trades page, Trading's open trades and the Orders view (the order's
// time, on its age), and the bot's trade card on a 360 px phone. The Dashboard says no trade's time (its open
// positions are figures only).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type Envelope, appUrl, callApi, openScreen, post, registerUser, setupBrowser } from './support';

const web = setupBrowser();
const ZONE = 'Asia/Tokyo';

/** An instant as the app's formatter writes it in a zone (lib/format-time.ts's shapes), from Intl itself. */
function inZone(at: string, options: Intl.DateTimeFormatOptions, timeZone = ZONE) {
  return new Intl.DateTimeFormat('en-US', { ...options, timeZone }).format(new Date(at));
}
const DATE_TIME = { dateStyle: 'medium', timeStyle: 'short' } as const;
const COMPACT = { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' } as const;
const SECONDS = { ...COMPACT, second: '2-digit' } as const;

async function arrange() {
  const user = await registerUser();
  const account = await post<{ id: string }>(user, '/api/trading-accounts', {
    nickname: 'Paper zone',
    exchange: 'paper',
    marketType: 'spot',
    startingBalance: '25000',
  });
  const strategyKey = `zone-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const strategy = await post<{ id: string; webhookSecret: string }>(user, '/api/strategies', {
    nickname: 'Zone strategy',
    strategyKey,
    tradeCurrency: 'BTC',
    timeFrame: '1h',
    takeProfits: [{ percent: '20', sizePercent: '100' }],
  });
  const bot = await post<{ id: string }>(user, '/api/bots', {
    nickname: 'Zone bot',
    is_active: true,
    strategy_id: strategy.id,
    trading_account_id: account.id,
    portfolio_percent: '10',
  });
  const signal = await callApi('/webhooks/tradingview', {
    body: { strategyKey, secret: strategy.webhookSecret, action: 'long', id: 'zone-long-1' },
  });
  expect(signal.status, JSON.stringify(signal.body)).toBe(200);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const trades = await callApi<Envelope<Array<{ id: string; status: string; openedAt: string }>>>(
      `/api/bots/${bot.id}/trades`,
      { token: user.apiToken },
    );
    const trade = trades.body.results.find((t) => t.status === 'open');
    const orders = await callApi<Envelope<Array<{ tradeId: string; role: string; createdAt: string }>>>(
      '/api/orders?scope=open',
      { token: user.apiToken },
    );
    const takeProfit = orders.body.results.find((o) => o.tradeId === trade?.id && o.role === 'tp1');
    if (trade && takeProfit) return { user, botId: bot.id, trade, takeProfit };
    if (Date.now() > deadline)
      throw new Error(`no bot trade with its take-profit: ${JSON.stringify(trades.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function textOf(page: Page, selector = 'main') {
  return page.locator(selector).first().innerText();
}

describe('the chosen time zone on every screen (issue 21)', () => {
  it(`shows one trade's times in ${ZONE} wherever they appear`, { timeout: 90_000 }, async () => {
    const { user, botId, trade, takeProfit } = await arrange();
    const opened = trade.openedAt;
    // The browser's own zone says something else: the check means something.
    expect(inZone(opened, DATE_TIME, 'UTC')).not.toBe(inZone(opened, DATE_TIME));

    const page = await web.newPage({ session: user });
    await openScreen(page, appUrl('/settings?tab=preferences'));
    await page.getByLabel('Time zone').selectOption(ZONE);

    const seen: Record<string, boolean> = {};
    await openScreen(page, appUrl(`/trade/${trade.id}`));
    const detail = await textOf(page);
    seen['trade detail: opened'] = detail.includes(`Opened ${inZone(opened, DATE_TIME)}`);
    seen['trade detail: timeline'] = detail.includes(inZone(takeProfit.createdAt, SECONDS));

    await openScreen(page, appUrl(`/bot/${botId}`));
    seen["the bot's trades table"] = (await textOf(page)).includes(inZone(opened, COMPACT));

    await openScreen(page, appUrl('/trades'));
    seen['Trades page'] = (await textOf(page, 'table')).includes(inZone(opened, COMPACT));

    await openScreen(page, appUrl('/trading'));
    seen["Trading's open trades"] = (await textOf(page)).includes(inZone(opened, DATE_TIME));

    await openScreen(page, appUrl('/trades/orders'));
    const orderTime = await page
      .getByRole('table')
      .getByRole('row')
      .filter({ hasText: 'BTC/USDT' })
      .locator('time')
      .getAttribute('title');
    seen['Orders (its time)'] = orderTime === inZone(takeProfit.createdAt, DATE_TIME);

    // On a phone the bot's trades are cards (issue 21), their time in the zone too.
    await page.setViewportSize({ width: 360, height: 740 });
    await openScreen(page, appUrl(`/bot/${botId}`));
    const card = page.getByRole('list', { name: 'Trades' }).getByRole('listitem').first();
    seen["the bot's trade card at 360 px"] =
      (await card.isVisible()) && (await card.innerText()).includes(inZone(opened, COMPACT));

    expect(seen).toEqual(Object.fromEntries(Object.keys(seen).map((screen) => [screen, true])));
  });
});
