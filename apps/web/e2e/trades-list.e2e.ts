// Issue 21 in a browser, against the real server and its paper venue: the Trades screen lists every trade of
// the user (a closed manual trade among them), filters by status through the address, opens a trade from its
// row, and shows cards on a phone. Screenshots at 1280 and 390 px in both themes on demand:
// E2E_SCREENSHOTS=1 npx vitest run --project e2e trades-list
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

async function openManualTrade(trader: TestUser, accountId: string, symbol: string, side: 'long' | 'short') {
  const created = await callApi<Envelope<{ trade: { id: string } }>>('/api/trades', {
    token: trader.apiToken,
    body: {
      accountId,
      symbol,
      side,
      amount: symbol.startsWith('BTC') ? '0.02' : '0.5',
      stopLossPercent: '5',
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.results.trade.id;
}

describe('trades list', () => {
  it('lists the open and the closed manual trades, filters them and opens one; cards on a phone', async () => {
    const trader = await registerUser();
    const account = await callApi<Envelope<{ id: string }>>('/api/trading-accounts', {
      token: trader.apiToken,
      body: { nickname: 'Paper e2e', exchange: 'paper', marketType: 'spot', startingBalance: '25000' },
    });
    expect(account.status, JSON.stringify(account.body)).toBe(201);
    const accountId = account.body.results.id;
    const closedId = await openManualTrade(trader, accountId, 'BTC/USDT', 'long');
    const closed = await callApi(`/api/trades/${closedId}/complete`, { token: trader.apiToken, body: {} });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const openId = await openManualTrade(trader, accountId, 'ETH/USDT', 'long');

    const page = await web.newPage({ session: trader });
    await page.goto(appUrl('/dashboard'));
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Trades' })
      .click();
    const table = page.getByRole('table', { name: 'Your trades' });
    await table.waitFor();
    await expect(table.getByRole('row').count()).resolves.toBe(3);
    const closedRow = table.getByRole('row').filter({ hasText: 'BTC/USDT' });
    expect(await closedRow.innerText()).toMatch(/Manual[\s\S]*Closed/);
    if (process.env.E2E_SCREENSHOTS) await screenshot(page, 'trades-list/dark-1280');

    await page.getByLabel('Status').selectOption('closed');
    await page.waitForURL('**/trades?status=closed');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await table.getByRole('link').first().click();
    await page.waitForURL(`**/trade/${closedId}`);

    for (const theme of ['dark', 'light'] as const) {
      for (const width of [1280, 390]) {
        if (theme === 'dark' && width === 1280) continue;
        const shot = await web.newPage({ session: trader, theme, width, height: width === 390 ? 844 : 800 });
        await shot.goto(appUrl('/trades'));
        if (width === 390) {
          const cards = shot.getByRole('list', { name: 'Your trades' });
          await cards.waitFor();
          await expect(cards.getByRole('link').count()).resolves.toBe(2);
          expect(await cards.getByRole('link').first().getAttribute('href')).toBe(`/trade/${openId}`);
          const overflow = await shot.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          expect(overflow).toBeLessThanOrEqual(0);
        } else await shot.getByRole('table', { name: 'Your trades' }).waitFor();
        if (process.env.E2E_SCREENSHOTS)
          await screenshot(shot, `trades-list/${theme}-${width}`, { fullPage: true });
      }
    }
  });
});
