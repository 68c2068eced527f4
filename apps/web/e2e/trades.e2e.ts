// Issue 7 in a browser, against the real server and its paper venue: a trade with a take-profit
// ladder, TP1 pushed to market from TradeDetail after the confirmation, and a manual trade opened
// from the Trading screen. Screenshots of both screens on demand:
// E2E_SCREENSHOTS=1 npx vitest run --project e2e trades
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

interface TradeDetailBody {
  trade: { id: string; status: string };
  ladder: Array<{ role: string; status: string; pushable: boolean }>;
  orders: Array<{ role: string; type: string }>;
}

/** The trade as the server has it now. */
async function tradeDetail(trader: TestUser, tradeId: string): Promise<TradeDetailBody> {
  const detail = await callApi<Envelope<TradeDetailBody>>(`/api/trades/${tradeId}`, {
    token: trader.apiToken,
  });
  expect(detail.status, JSON.stringify(detail.body)).toBe(200);
  return detail.body.results;
}

/** The trader's open trades, as the Trades list reads them. */
async function openTradesOf(
  trader: TestUser,
): Promise<Array<{ id: string; symbol: string; entryPrice: string | null }>> {
  const list = await callApi<Envelope<Array<{ id: string; symbol: string; entryPrice: string | null }>>>(
    '/api/trades?status=open',
    { token: trader.apiToken },
  );
  return list.body.results;
}

/** What the journeys hand to each other (tests in a file run in order). */
const state: { trader?: TestUser; accountId?: string } = {};

async function arrangeTrader(): Promise<{ trader: TestUser; accountId: string }> {
  if (state.trader && state.accountId) return { trader: state.trader, accountId: state.accountId };
  const trader = await registerUser();
  const account = await callApi<Envelope<{ id: string }>>('/api/trading-accounts', {
    token: trader.apiToken,
    body: { nickname: 'Paper e2e', exchange: 'paper', marketType: 'spot', startingBalance: '25000' },
  });
  expect(account.status, JSON.stringify(account.body)).toBe(201);
  state.trader = trader;
  state.accountId = account.body.results.id;
  return { trader, accountId: account.body.results.id };
}

/**
 * A long BTC/USDT trade at market with TP1 and TP2 resting 2% and 4% above the entry. Break-even is off:
 * a TP pushed under the entry would otherwise move the stop above the market and close the rest at once.
 */
async function openLadderTrade(trader: TestUser, accountId: string): Promise<string> {
  const created = await callApi<Envelope<TradeDetailBody>>('/api/trades', {
    token: trader.apiToken,
    body: {
      accountId,
      symbol: 'BTC/USDT',
      side: 'long',
      amount: '0.02',
      takeProfits: [
        { percent: '2', sizePercent: '50' },
        { percent: '4', sizePercent: '50' },
      ],
      stopLossPercent: '5',
      breakEvenAfterTp1: false,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const detail = created.body.results;
  expect(detail.ladder.map((level) => level.status)).toEqual(['placed', 'placed']);
  return detail.trade.id;
}

const ladderRow = (page: Page, name: string, caption = 'Take-profit ladder') =>
  page.getByRole('table', { name: caption }).getByRole('row', { name: new RegExp(`^${name}`) });

describe('trades', () => {
  it('pushes TP1 to market after the confirmation and shows it filled, with the order id', async () => {
    const { trader, accountId } = await arrangeTrader();
    const tradeId = await openLadderTrade(trader, accountId);
    const page = await web.newPage({ session: trader });
    await page.goto(appUrl(`/trade/${tradeId}`));
    await page.getByRole('heading', { level: 1, name: /BTC\/USDT/ }).waitFor();

    expect(await ladderRow(page, 'TP1').innerText()).toMatch(/Placed/);
    expect(await ladderRow(page, 'TP2').innerText()).toContain('Waiting for TP1 to be filled first');

    await page.getByRole('button', { name: 'Push to market (TP1)' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Push TP1 to market?' });
    expect(await confirm.innerText()).toMatch(
      /The current TP1 limit order at [\d,.]+ USDT is cancelled and a market order is created for 0\.01000 BTC/,
    );
    // A double click pushes once (issue 21): TP1 goes to market, TP2 keeps resting.
    await confirm.getByRole('button', { name: 'Push to market' }).dblclick();

    const result = page.getByTestId('push-result');
    await result.waitFor();
    const message = await result.innerText();
    expect(message).toMatch(/^Successfully pushed TP1 to market! Order ID: \S+$/);
    await ladderRow(page, 'TP1').getByText('Filled').waitFor();
    expect(await ladderRow(page, 'TP1').innerText()).toMatch(/pushed/i);

    // The server agrees, and the order id on screen is the market order's.
    const detail = await callApi<Envelope<TradeDetailBody & { ladder: Array<{ orderId: string }> }>>(
      `/api/trades/${tradeId}`,
      { token: trader.apiToken },
    );
    const tp1 = detail.body.results.ladder[0];
    expect(tp1?.status).toBe('filled');
    expect(message).toContain(`Order ID: ${tp1?.orderId}`);
    // TP2 is next in line now.
    await page.getByRole('button', { name: 'Push to market (TP2)' }).waitFor();
    const pushedOnce = await tradeDetail(trader, tradeId);
    expect(pushedOnce.ladder.map((level) => level.status)).toEqual(['filled', 'placed']);
    expect(
      pushedOnce.orders.filter((order) => order.type === 'market' && order.role !== 'entry'),
    ).toHaveLength(1);
    const timeline = page.getByRole('table', { name: 'Orders and fills' });
    await timeline.getByText('Market order').last().waitFor();

    // "Close now", confirmed with a double click, closes it once: one exit order.
    await page.getByRole('button', { name: 'Close now' }).click();
    const closeConfirm = page.getByRole('alertdialog', { name: 'Close BTC/USDT now?' });
    await closeConfirm.getByRole('button', { name: 'Close at market' }).dblclick();
    await expect.poll(async () => (await tradeDetail(trader, tradeId)).trade.status).toBe('closed');
    const closed = await tradeDetail(trader, tradeId);
    expect(closed.orders.filter((order) => order.role === 'exit')).toHaveLength(1);
  });

  it('opens a manual trade from Trading and follows it to TradeDetail', async () => {
    const { trader } = await arrangeTrader();
    const page = await web.newPage({ session: trader });
    await page.goto(appUrl('/trading'));
    const form = page.getByRole('form', { name: 'Manual trade' });
    await form.getByLabel('Amount').fill('abc');
    await form.getByRole('button', { name: /Buy BTC/ }).click();
    await form.getByText('Please enter a valid amount').waitFor();

    await form.getByLabel('Amount').fill('0.01');
    await form.getByRole('button', { name: 'Add a level' }).click();
    const before = (await openTradesOf(trader)).length;
    // A double click opens one trade (issue 21).
    await form.getByRole('button', { name: /Buy BTC/ }).dblclick();
    await page.getByText('Long 0.01000 BTC/USDT opened').waitFor();
    expect(await openTradesOf(trader)).toHaveLength(before + 1);

    const openTrades = page.getByRole('table', { name: 'Open trades' });
    await openTrades.getByRole('link', { name: 'BTC/USDT' }).first().click();
    await page.waitForURL(/\/trade\//);
    await page.getByRole('heading', { level: 1, name: /BTC\/USDT/ }).waitFor();
    await ladderRow(page, 'TP1').getByRole('button', { name: 'Push to market (TP1)' }).waitFor();

    // A fill that happens elsewhere (here: the push host called directly) reaches the open screen live.
    const tradeId = page.url().split('/').pop() ?? '';
    const pushed = await callApi('/push-to-take-profit', {
      method: 'PUT',
      token: trader.apiToken,
      body: { tradeId, takeProfitRole: 'tp1', test: false },
    });
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
    await ladderRow(page, 'TP1').getByText('Filled').waitFor();
  });

  it('fills the manual order form in French: available, a share of it, the total, live checks, "1 000,5"', async () => {
    const { trader } = await arrangeTrader();
    const page = await web.newPage({ session: trader, language: 'fr-FR' });
    await page.goto(appUrl('/trading'));
    const form = page.getByRole('form', { name: 'Trade manuel' });
    await form.getByText(/^Disponible\s?:\s[\d\s]+,\d{2}\sUSDT$/).waitFor();
    const amount = form.getByLabel('Quantité');

    // 25 % of what is available at the last price, to the market's step, and its total in USDT.
    await form.getByRole('button', { name: 'Utiliser 25 % du solde disponible' }).click();
    expect(await amount.inputValue()).toMatch(/^0[.,]\d{5}$/);
    await form.getByText(/^Total ≈ [\d\s]+,\d{2}\sUSDT · ordre au marché$/).waitFor();
    for (const percent of [50, 75, 100]) {
      const previous = await amount.inputValue();
      await form.getByRole('button', { name: `Utiliser ${percent} % du solde disponible` }).click();
      await expect.poll(() => amount.inputValue()).not.toBe(previous);
    }

    // A wrong amount is said as it is typed, and the message goes once it is a number.
    await amount.fill('abc');
    await form.getByText('Veuillez saisir un montant valide').waitFor();
    await amount.fill('0,5');
    await form.getByText('Veuillez saisir un montant valide').waitFor({ state: 'detached' });

    // "1 000,5" the French way is a thousand and a half: the total says 500,25 USDT, the order rests there.
    await form.getByLabel('Prix limite').fill('1 000,5');
    await form.getByText(/^Total ≈ 500,25\sUSDT · ordre limite$/).waitFor();
    const before = await openTradesOf(trader);
    await form.getByRole('button', { name: /Acheter BTC/ }).dblclick();
    await page.getByText(/^Ordre limite d’achat de 0,50000\sBTC à 1\s000,50\sUSDT placé$/).waitFor();
    const after = await openTradesOf(trader);
    const placed = after.filter((trade) => !before.some((old) => old.id === trade.id));
    expect(placed).toHaveLength(1);
    const orders = await callApi<Envelope<Array<{ tradeId: string; price: string; amount: string }>>>(
      '/api/orders',
      {
        token: trader.apiToken,
      },
    );
    const order = orders.body.results.find((row) => row.tradeId === placed[0]?.id);
    expect([Number(order?.price), Number(order?.amount)]).toEqual([1000.5, 0.5]);
  });
});

async function settle(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(300); // the chart draws, transitions end
}

describe.skipIf(!process.env.E2E_SCREENSHOTS)('trades screens', () => {
  for (const theme of ['dark', 'light'] as const) {
    it(`TradeDetail and Trading in the ${theme} theme`, async () => {
      const { trader, accountId } = await arrangeTrader();
      const tradeId = await openLadderTrade(trader, accountId);
      const page = await web.newPage({ theme, session: trader, height: 900 });

      await page.goto(appUrl(`/trade/${tradeId}`));
      await ladderRow(page, 'TP1').getByText('Placed').waitFor();
      await settle(page);
      await screenshot(page, `trades/trade-detail-${theme}`, { fullPage: true });
      await page.getByRole('button', { name: 'Push to market (TP1)' }).click();
      await settle(page);
      await screenshot(page, `trades/trade-push-confirm-${theme}`);
      await page.getByRole('alertdialog').getByRole('button', { name: 'Push to market' }).click();
      await page.getByTestId('push-result').waitFor();
      await ladderRow(page, 'TP1').getByText('Filled').waitFor();
      await settle(page);
      await screenshot(page, `trades/trade-detail-pushed-${theme}`, { fullPage: true });
      await page.getByRole('button', { name: 'Edit stop-loss' }).click();
      await settle(page);
      await screenshot(page, `trades/trade-stop-loss-${theme}`);
      await page.keyboard.press('Escape');

      await page.goto(appUrl('/trading'));
      await page.getByRole('table', { name: 'Open trades' }).getByRole('link').first().waitFor();
      await page.locator('canvas').first().waitFor();
      await settle(page);
      await screenshot(page, `trades/trading-${theme}`, { fullPage: true });
    });
  }

  it('TradeDetail and Trading in French at 1023 px and at 390 px', async () => {
    const { trader, accountId } = await arrangeTrader();
    const tradeId = await openLadderTrade(trader, accountId);
    const page = await web.newPage({ session: trader, language: 'fr-FR', width: 1023, height: 900 });
    await page.goto(appUrl(`/trade/${tradeId}`));
    await ladderRow(page, 'TP1', 'Échelle de take-profit').getByText('Placé').waitFor();
    await settle(page);
    await screenshot(page, 'trades/trade-detail-fr-1023', { fullPage: true });
    await page.goto(appUrl('/trading'));
    await page.locator('canvas').first().waitFor();
    await settle(page);
    await screenshot(page, 'trades/trading-fr-1023', { fullPage: true });

    const phone = await web.newPage({ session: trader, width: 390, height: 844 });
    await phone.goto(appUrl(`/trade/${tradeId}`));
    await ladderRow(phone, 'TP1').getByText('Placed').waitFor();
    await settle(phone);
    await screenshot(phone, 'trades/trade-detail-390', { fullPage: true });
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await phone.goto(appUrl('/trading'));
    await phone.locator('canvas').first().waitFor();
    await settle(phone);
    await screenshot(phone, 'trades/trading-390', { fullPage: true });
    // Wide tables scroll inside their cards: the page itself never scrolls sideways.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  });
});
