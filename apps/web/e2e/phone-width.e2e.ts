// Issue 21: no page is wider than a 360 px phone, logged in or not — every route of app/routes.ts, each with
// what it shows (an account, a bot, a trade, a resting order, a billed user), and the lists of bots, trades and
// orders are cards there, with their key figures on screen.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  PUBLIC_ROUTES,
  type TestUser,
  adminRoutes,
  adminUser,
  appUrl,
  arrangeTrader,
  openScreen,
  setupBrowser,
  traderRoutes,
} from './support';

const web = setupBrowser();
const WIDTH = 360;

/** How far the page reaches past the viewport, and the widest elements that do (to say what to fix). */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const culprits = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.right > width + 1 && getComputedStyle(element).position !== 'fixed';
      })
      .slice(-3)
      .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 60)}`);
    return { extra: document.documentElement.scrollWidth - width, culprits };
  });
}

/** Visible boxes that scroll sideways inside the page (a table wider than its card): what a thumb meets. */
async function sidewaysScrollers(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main *')]
      .filter((element) => {
        const style = getComputedStyle(element);
        const visible = element.offsetParent !== null && element.clientWidth > 0;
        return (
          visible &&
          (style.overflowX === 'auto' || style.overflowX === 'scroll') &&
          element.scrollWidth > element.clientWidth + 1
        );
      })
      .map((element) => element.getAttribute('aria-label') ?? element.tagName.toLowerCase()),
  );
}

/**
 * Card and section titles cut short or squeezed to a word a line (issue 21: "Authentification à deux fact…", a
 * chart's title beside its range buttons).
 */
async function squeezedHeadings(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main h2, main h3')]
      .filter((heading) => {
        const lineHeight = parseFloat(getComputedStyle(heading).lineHeight) || 20;
        const cut = heading.scrollWidth > heading.clientWidth + 1;
        const tall = heading.getBoundingClientRect().height > lineHeight * 2 + 1;
        // Not a heading for screen readers only (1 px wide on purpose).
        return heading.offsetParent !== null && heading.clientWidth > 1 && (cut || tall);
      })
      .map((heading) => heading.innerText.replace(/\s+/g, ' ')),
  );
}

/**
 * What may still scroll sideways inside a page at 360 px (named by its region's label): the component showcase's
 * samples. Everything else is a card below 640 px, or wraps (issue 21).
 */
const MAY_SCROLL_INSIDE = ['Cards, metrics and tabs', 'Sample trades'];

describe(`every route at ${WIDTH} px (issue 21: nothing scrolls sideways)`, () => {
  it('public, trader and admin screens fit the phone', { timeout: 240_000 }, async () => {
    const world = await arrangeTrader();
    const admin = await adminUser();
    const found: string[] = [];
    const visit = async (session: TestUser | undefined, routes: string[], language?: 'fr-FR') => {
      const page = await web.newPage({ session, width: WIDTH, height: 740, language });
      for (const route of routes) {
        await openScreen(page, appUrl(route));
        const { extra, culprits } = await overflow(page);
        if (extra > 0) found.push(`${route}: ${extra} px too wide (${culprits.join(', ')})`);
        const inner = (await sidewaysScrollers(page)).filter((name) => !MAY_SCROLL_INSIDE.includes(name));
        if (inner.length > 0) found.push(`${route}: scrolls sideways inside ${inner.join(', ')}`);
        const squeezed = await squeezedHeadings(page);
        if (squeezed.length > 0)
          found.push(`${route}: titles cut or wrapped over 3 lines or more: ${squeezed.join(', ')}`);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
          route,
        ).toBe(extra <= 0);
      }
    };
    await visit(undefined, PUBLIC_ROUTES);
    // Signed in, in French: its words are longer than the English ones.
    await visit(world.trader, traderRoutes(world), 'fr-FR');
    await visit(admin, adminRoutes(world.trader), 'fr-FR');
    expect(found, found.join('\n')).toEqual([]);
  });

  it(
    'shows bots, trades and orders as cards with their key figures and actions',
    { timeout: 60_000 },
    async () => {
      const world = await arrangeTrader();
      const page = await web.newPage({ session: world.trader, width: WIDTH, height: 740 });

      await openScreen(page, appUrl('/bots'));
      expect(await page.getByRole('table').isVisible()).toBe(false);
      const bot = page.getByRole('article', { name: 'A11y bot' });
      // Position, size, live or paused (a badge's glyph comes before its word).
      for (const text of [/Out$/, /^10\.00%/, /Active$/])
        expect(await bot.getByText(text).first().isVisible(), String(text)).toBe(true);
      const toggle = bot.getByRole('switch', { name: 'Active: A11y bot' });
      expect(await toggle.isVisible()).toBe(true);
      // The switch sits inside the card, away from the screen's edges where a sideways swipe starts.
      const box = await toggle.boundingBox();
      expect(box && box.x >= 24 && box.x + box.width <= WIDTH - 24, JSON.stringify(box)).toBe(true);

      await openScreen(page, appUrl('/trades'));
      expect(await page.getByRole('table').isVisible()).toBe(false);
      const trades = page.getByRole('list', { name: 'Your trades' });
      const btc = trades.getByRole('listitem').filter({ hasText: 'BTC/USDT' });
      for (const text of [/Long$/, /^Size$/, /^PnL$/])
        expect(await btc.getByText(text).first().isVisible(), String(text)).toBe(true);

      // Trading's open trades (issue 21: seven columns scrolled sideways): a card each, its PnL in the corner.
      await openScreen(page, appUrl('/trading'));
      expect(await page.getByRole('table', { name: 'Open trades' }).isVisible()).toBe(false);
      const open = page.getByRole('list', { name: 'Open trades' });
      const position = open.getByRole('listitem').filter({ hasText: 'BTC/USDT' });
      for (const text of [/Long$/, /^Qty$/, /^Entry$/, /USDT$/])
        expect(await position.getByText(text).first().isVisible(), String(text)).toBe(true);
      // The resting limit order is no position: its card says the entry is pending.
      const pending = open.getByRole('listitem').filter({ hasText: 'ETH/USDT' });
      expect(await pending.getByText('Entry pending').isVisible()).toBe(true);

      // A trade's orders and fills (issue 21: eight columns scrolled sideways): its market entry order and fill.
      await openScreen(page, appUrl(`/trade/${world.tradeId}`));
      expect(await page.getByRole('table', { name: 'Orders and fills' }).isVisible()).toBe(false);
      const timeline = page.getByRole('list', { name: 'Orders and fills' }).getByRole('listitem');
      const entryOrder = timeline.filter({ hasText: 'Market order' }).first();
      for (const text of ['Entry', /Buy$/, 'Price (USDT)', 'Amount (BTC)', /Filled$/])
        expect(await entryOrder.getByText(text).first().isVisible(), String(text)).toBe(true);
      const fill = timeline.filter({ hasText: /^Fill/ }).first();
      for (const text of ['Price (USDT)', 'Amount (BTC)', /^Fee \d/])
        expect(await fill.getByText(text).first().isVisible(), String(text)).toBe(true);

      // Portfolio's holdings (five columns): a card an asset, its amount, value and share.
      await openScreen(page, appUrl('/portfolio'));
      expect(await page.getByRole('table', { name: 'Holdings' }).isVisible()).toBe(false);
      const btcHolding = page
        .getByRole('list', { name: 'Holdings' })
        .getByRole('listitem')
        .filter({ hasText: 'Paper a11y' })
        .filter({ hasText: /BTC/ })
        .first();
      for (const text of ['Amount', 'Value', /%$/, /BTC$/])
        expect(await btcHolding.getByText(text).first().isVisible(), String(text)).toBe(true);

      await openScreen(page, appUrl('/trades/orders'));
      expect(await page.getByRole('table').isVisible()).toBe(false);
      const order = page.getByRole('listitem').filter({ hasText: 'ETH/USDT' });
      expect(await order.getByRole('button', { name: /Cancel/ }).isVisible()).toBe(true);
    },
  );

  it('shows trade control’s strategies as cards at 360 and 390 px, nothing scrolling sideways', async () => {
    const world = await arrangeTrader();
    const admin = await adminUser();
    for (const width of [WIDTH, 390]) {
      const page = await web.newPage({ session: admin, width, height: 740 });
      await openScreen(page, appUrl('/admin/trade-control'));
      expect(await page.getByRole('table', { name: 'Strategies' }).isVisible()).toBe(false);
      const card = page
        .getByRole('list', { name: 'Strategies' })
        .getByRole('button')
        .filter({ hasText: world.trader.email })
        .first();
      for (const text of ['A11y strategy', 'Active trades', 'Open orders'])
        expect(await card.getByText(text).first().isVisible(), text).toBe(true);
      expect(await sidewaysScrollers(page), `${width} px`).toEqual([]);
    }
  });
});
