// Issue 21 in a browser, against the real server and its paper venue: a pending manual limit order is an order,
// not a position — Trading says "Entry pending" (no "0.00" held), the Orders view beside Trades lists it with its
// price, amount and filled %, and Cancel (confirmed, once for a double click) cancels it. Screenshots at 1280
// and 390 px in both themes on demand: E2E_SCREENSHOTS=1 npx vitest run -c e2e/vitest.config.ts orders
import { describe, expect, it } from 'vitest';
import { type Envelope, appUrl, callApi, registerUser, screenshot, setupBrowser } from './support';

const web = setupBrowser();

describe('orders', () => {
  it('lists a resting limit entry as an order and cancels it from Orders; cards on a phone', async () => {
    const trader = await registerUser();
    const account = await callApi<Envelope<{ id: string }>>('/api/trading-accounts', {
      token: trader.apiToken,
      body: { nickname: 'Paper orders', exchange: 'paper', marketType: 'spot', startingBalance: '25000' },
    });
    expect(account.status, JSON.stringify(account.body)).toBe(201);
    const accountId = account.body.results.id;
    // A buy far below the market: it rests.
    const limit = await callApi<Envelope<{ trade: { id: string } }>>('/api/trades', {
      token: trader.apiToken,
      body: {
        accountId,
        symbol: 'BTC/USDT',
        side: 'long',
        amount: '0.01',
        price: '30000',
        stopLossPercent: '3',
      },
    });
    expect(limit.status, JSON.stringify(limit.body)).toBe(201);
    const tradeId = limit.body.results.trade.id;

    const page = await web.newPage({ session: trader });
    await page.goto(appUrl('/trading'));
    const openTrades = page.getByRole('table', { name: 'Open trades' });
    const row = openTrades.getByRole('row').filter({ hasText: 'BTC/USDT' });
    await row.waitFor();
    expect(await row.innerText()).toContain('Entry pending');
    expect(await row.innerText()).not.toContain('0.00');
    if (process.env.E2E_SCREENSHOTS)
      await screenshot(page, 'orders/trading-pending-dark-1280', { fullPage: true });
    await page.goto(appUrl(`/trade/${tradeId}`));
    await page.getByText('Limit order for 0.01000 BTC at 30,000.00 USDT, not filled yet').waitFor();
    await page.getByText('Placed when the entry fills').waitFor();
    await page.getByRole('button', { name: 'Cancel the order' }).waitFor();
    if (process.env.E2E_SCREENSHOTS)
      await screenshot(page, 'orders/trade-pending-dark-1280', { fullPage: true });

    await page.goto(appUrl('/trades'));
    await page
      .getByRole('navigation', { name: 'Trades and orders' })
      .getByRole('link', { name: 'Orders' })
      .click();
    await page.waitForURL('**/trades/orders');
    const table = page.getByRole('table', { name: 'Your orders' });
    const order = table.getByRole('row').filter({ hasText: 'BTC/USDT' });
    await order.waitFor();
    const text = await order.innerText();
    expect(text).toMatch(/30,000\.00[\s\S]*0\.01[\s\S]*0\.00%[\s\S]*Open/);
    expect(text).toContain('Paper orders');

    for (const theme of ['dark', 'light'] as const) {
      for (const width of [1280, 390]) {
        const shot = await web.newPage({ session: trader, theme, width, height: width === 390 ? 844 : 800 });
        await shot.goto(appUrl('/trades/orders'));
        if (width === 390) {
          const cards = shot.getByRole('list', { name: 'Your orders' });
          await cards.waitFor();
          await expect(cards.getByRole('listitem').count()).resolves.toBe(1);
          const overflow = await shot.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          expect(overflow).toBeLessThanOrEqual(0);
        } else await shot.getByRole('table', { name: 'Your orders' }).waitFor();
        if (process.env.E2E_SCREENSHOTS)
          await screenshot(shot, `orders/${theme}-${width}`, { fullPage: true });
      }
    }

    await order.getByRole('button', { name: /^Cancel/ }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Cancel this order on BTC/USDT?' });
    await dialog.waitFor();
    if (process.env.E2E_SCREENSHOTS) await screenshot(page, 'orders/cancel-dialog');
    await dialog.getByRole('button', { name: 'Cancel the order' }).dblclick();
    await page.getByText('Order on BTC/USDT cancelled').waitFor();
    await page.getByText('No open orders').waitFor();
    const detail = await callApi<Envelope<{ trade: { status: string }; orders: { status: string }[] }>>(
      `/api/trades/${tradeId}`,
      { token: trader.apiToken },
    );
    expect(detail.body.results.trade.status).toBe('cancelled');
    expect(detail.body.results.orders.map((o) => o.status)).toEqual(['cancelled']);
  });
});
