// Issue 10: every screen of spec §2 as a visitor, a trader and an admin, in English and French,
// dark and light, at 1280 px (sidebar) and 1023 px (drawer), each pair of those once (COMBOS). On each screen: its heading in the
// right language, the <html> theme and lang, no sideways scroll, no phrase of the other language,
// and a viewport screenshot in apps/web/screenshots/journeys/<role>-<lang>-<theme>-<width>-<screen>.png.
// setupBrowser() fails a test on any console error, uncaught exception or failed request.
//
// Data is arranged once through the API (a paper account, a strategy, a bot and the trade a
// TradingView signal opened, for the trader and for the admin), and each journey moves through the
// app the way a user does: the sidebar (or the drawer at 1023 px), then links inside the screens.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import enUS from '../src/i18n/locales/en-US';
import enUSAdmin from '../src/i18n/locales/en-US.admin';
import enUSPortfolio from '../src/i18n/locales/en-US.portfolio';
import enUSSettings from '../src/i18n/locales/en-US.settings';
import enUSTrading from '../src/i18n/locales/en-US.trading';
import enUSStrategies from '../src/i18n/locales/en-US.strategies';
import frFR from '../src/i18n/locales/fr-FR';
import {
  type Envelope,
  type TestUser,
  adminUser,
  appUrl,
  callApi,
  registerUser,
  screenshot,
  setupBrowser,
  themeOf,
} from './support';

const web = setupBrowser();

type Lang = 'en' | 'fr';
type Theme = 'dark' | 'light';
type Width = 1280 | 1023;
type Role = 'public' | 'user' | 'admin';

const TEXT = {
  en: { ...enUS, ...enUSAdmin, ...enUSPortfolio, ...enUSSettings, ...enUSTrading, ...enUSStrategies },
  fr: frFR.translation,
} as const;
const LANGUAGE = { en: 'en-US', fr: 'fr-FR' } as const;
const CURRENCY = { en: 'USD', fr: 'EUR' } as const;

/**
 * Phrases only one language has: long enough to be unmistakable, without placeholders. A French
 * screen showing one of the English ones (or the reverse) has text that escaped translation.
 */
function ownPhrases(lang: Lang): string[] {
  const other: Lang = lang === 'en' ? 'fr' : 'en';
  const phrases: string[] = [];
  const walk = (mine: unknown, theirs: unknown) => {
    if (typeof mine === 'string') {
      if (mine !== theirs && mine.length >= 14 && mine.includes(' ') && !/[{}<>]/.test(mine)) {
        phrases.push(mine);
      }
      return;
    }
    if (mine && typeof mine === 'object') {
      for (const [key, value] of Object.entries(mine)) {
        walk(value, (theirs as Record<string, unknown> | undefined)?.[key]);
      }
    }
  };
  walk(TEXT[lang], TEXT[other]);
  return phrases;
}
const FOREIGN: Record<Lang, string[]> = { en: ownPhrases('fr'), fr: ownPhrases('en') };

interface Owner {
  user: TestUser;
  botName: string;
  strategyName: string;
  botId: string;
  tradeId: string;
}
interface Fixture {
  trader: Owner;
  admin: Owner;
}
let fixture: Fixture;

async function ok<T>(user: TestUser, path: string, body?: unknown, method?: string): Promise<T> {
  const response = await callApi<Envelope<T>>(path, { token: user.apiToken, body, method });
  expect(response.status, `${method ?? 'POST'} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body.results;
}

/** A paper account, a strategy, an active bot, and the trade a `long` signal opens for it. */
async function arrangeOwner(user: TestUser, label: string): Promise<Owner> {
  const account = await ok<{ id: string }>(user, '/api/trading-accounts', {
    nickname: `Paper ${label}`,
    exchange: 'paper',
    marketType: 'spot',
    startingBalance: '25000',
  });
  const strategyName = `Trend ${label}`;
  const strategyKey = `journeys-${label}-${Date.now().toString(36)}`;
  const strategy = await ok<{ id: string; webhookSecret: string }>(user, '/api/strategies', {
    nickname: strategyName,
    strategyKey,
    tradeCurrency: 'BTC',
    timeFrame: '4h',
    takeProfits: [
      { percent: '2', sizePercent: '50' },
      { percent: '4', sizePercent: '50' },
    ],
    stopLossPercent: '3',
  });
  const botName = `Follower ${label}`;
  const bot = await ok<{ id: string }>(user, '/api/bots', {
    nickname: botName,
    is_active: true,
    strategy_id: strategy.id,
    trading_account_id: account.id,
    portfolio_percent: '20',
  });
  const signal = await callApi(`/webhooks/${strategyKey}`, {
    body: { secret: strategy.webhookSecret, action: 'long', id: `journeys-${label}-1` },
  });
  expect(signal.status, JSON.stringify(signal.body)).toBe(200);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const trades = await ok<Array<{ id: string }>>(user, `/api/bots/${bot.id}/trades`, undefined, 'GET');
    if (trades[0]) return { user, botName, strategyName, botId: bot.id, tradeId: trades[0].id };
    if (Date.now() > deadline) throw new Error(`the long signal of ${label} opened no trade`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  const [trader, admin] = await Promise.all([
    registerUser().then((user) => arrangeOwner(user, 'trader')),
    adminUser().then((user) => arrangeOwner(user, 'admin')),
  ]);
  // A plan, so the admin's billing page of the trader has something to show.
  await ok(
    admin.user,
    '/admin/billing/user',
    { userId: trader.user.user.id, percent: '20', active: true, autoCharge: false },
    'PUT',
  );
  fixture = { trader, admin };
}, 60_000);

interface Combo {
  lang: Lang;
  theme: Theme;
  width: Width;
}

/** Nothing on the screen is still loading (no skeleton, spinner or busy part) and live updates are on. */
const LOADING = [
  '.skeleton',
  '.animate-spin',
  '[aria-busy="true"]',
  '[role="status"][aria-label]',
  '[data-testid="live-status"]:not([data-status="live"])',
].join(', ');

async function settled(page: Page) {
  await page.waitForFunction((selector) => !document.querySelector(selector), LOADING, {
    timeout: 10_000,
    polling: 50,
  });
}

/** The checks every screen passes, then its screenshot. */
async function check(page: Page, combo: Combo, role: Role, screen: string, landmark: Locator) {
  await landmark.waitFor();
  await settled(page);
  const facts = await page.evaluate(() => ({
    lang: document.documentElement.lang,
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    text: document.body.innerText,
    // Parts of the screen cut or scrolling sideways (wide tables may scroll inside their card, but
    // not at these widths), screen-reader-only text aside.
    clipped: [...document.querySelectorAll('main *')]
      .filter((el) => el.clientWidth > 2 && el.scrollWidth > el.clientWidth + 1)
      .filter((el) => getComputedStyle(el).overflowX !== 'visible')
      .map(
        (el) => `<${el.tagName.toLowerCase()} class="${el.className}">${(el.textContent ?? '').slice(0, 60)}`,
      ),
  }));
  expect(facts.lang, `${screen}: <html lang>`).toBe(LANGUAGE[combo.lang]);
  expect(await themeOf(page), `${screen}: theme`).toEqual({
    dataTheme: combo.theme,
    dark: combo.theme === 'dark',
  });
  expect(facts.scrollWidth, `${screen}: the page scrolls sideways at ${combo.width} px`).toBeLessThanOrEqual(
    facts.innerWidth,
  );
  expect(facts.clipped, `${screen}: cut or scrolling sideways at ${combo.width} px`).toEqual([]);
  const foreign = FOREIGN[combo.lang].filter((phrase) => facts.text.includes(phrase));
  expect(foreign, `${screen}: text of the other language`).toEqual([]);
  await screenshot(page, `journeys/${role}-${combo.lang}-${combo.theme}-${combo.width}-${screen}`);
}

const h1 = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { level: 1, name, exact: typeof name === 'string' ? true : undefined });

/** Through the sidebar, or the drawer below 1024 px, as a user would. */
async function viaNav(page: Page, width: Width, label: string) {
  let nav: Locator;
  if (width < 1024) {
    await page.getByTestId('mobile-nav-toggle').click();
    nav = page.getByTestId('mobile-drawer');
  } else {
    nav = page.getByTestId('sidebar');
  }
  await nav.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
}

/**
 * Client-side navigation to a screen no link on the way leads to for sure (the billing list is
 * paged): what the router does on history.back/forward, without reloading the app.
 */
async function routeTo(page: Page, path: string) {
  await page.evaluate((to) => {
    const state = window.history.state as { idx?: number } | null;
    window.history.pushState({ usr: null, key: `e2e${Date.now()}`, idx: (state?.idx ?? 0) + 1 }, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, path);
  await page.waitForURL((url) => `${url.pathname}${url.search}` === path);
}

/** Saved preferences of the account match the browser's (what logging in there would apply). */
async function savePreferences(user: TestUser, combo: Combo) {
  await ok(
    user,
    '/user/settings',
    { language: LANGUAGE[combo.lang], currency: CURRENCY[combo.lang], theme: combo.theme },
    'PUT',
  );
}

async function publicJourney(page: Page, combo: Combo) {
  const t = TEXT[combo.lang];
  const screens: Array<[string, string, string]> = [
    ['home', '/', t.home.title],
    ['login', '/login', t.auth.login.title],
    ['register', '/register', t.auth.register.title],
    ['forgot-password', '/forgot-password', t.auth.forgot.title],
    ['reset-password', '/reset-password?token=journeys&email=someone%40e2e.test', t.auth.reset.title],
    ['not-found', '/no/such/screen', t.notFound.title],
  ];
  await page.goto(appUrl('/'));
  for (const [screen, path, heading] of screens) {
    if (path !== '/') await routeTo(page, path);
    await check(page, combo, 'public', screen, page.getByRole('heading', { name: heading, exact: true }));
  }
}

/** Every screen a trader has, through the app; the admin walks the same path first. */
async function userScreens(page: Page, combo: Combo, role: 'user' | 'admin', owner: Owner) {
  const t = TEXT[combo.lang];
  const { width } = combo;
  await page.goto(appUrl('/dashboard'));
  await check(page, combo, role, 'dashboard', h1(page, t.dashboard.title));

  await viaNav(page, width, t.nav.trading);
  await check(page, combo, role, 'trading', h1(page, t.trading.title));

  await viaNav(page, width, t.nav.bots);
  await check(page, combo, role, 'bots', page.getByRole('link', { name: owner.botName }));
  await page.getByRole('tab', { name: t.bots.tabs.strategies }).click();
  await check(
    page,
    combo,
    role,
    'bots-strategies',
    page.getByRole('row', { name: new RegExp(`^${owner.strategyName}`) }),
  );
  await page.getByRole('tab', { name: t.bots.tabs.bots }).click();

  await page.getByRole('link', { name: owner.botName }).click();
  await check(page, combo, role, 'bot-detail', page.getByRole('table', { name: t.trades.title }));
  await expect(h1(page, new RegExp(owner.botName)).count()).resolves.toBe(1);

  await page.getByRole('table', { name: t.trades.title }).getByRole('link').first().click();
  await page.waitForURL(`**/trade/${owner.tradeId}`);
  await check(page, combo, role, 'trade-detail', page.getByRole('table', { name: t.trades.ladder.title }));
  await expect(h1(page, /BTC\/USDT/).count()).resolves.toBe(1);

  await viaNav(page, width, t.nav.portfolio);
  await check(page, combo, role, 'portfolio', h1(page, t.portfolio.title));

  await viaNav(page, width, t.nav.accounts);
  await check(page, combo, role, 'accounts', h1(page, t.accounts.title));

  await viaNav(page, width, t.nav.settings);
  await h1(page, t.settings.title).waitFor();
  for (const tab of ['profile', 'security', 'notifications', 'preferences'] as const) {
    await page.getByRole('tab', { name: t.settings.tabs[tab] }).click();
    await page.waitForURL(`**/settings?tab=${tab}`);
    await check(page, combo, role, `settings-${tab}`, h1(page, t.settings.title));
  }
}

// Each language, theme and width twice, each pair of them once (a Latin square over the 8 combinations):
// the whole product took about 3 minutes of the suite's 20 (issue 21's budget), half of it repeated.
const COMBOS: Combo[] = [
  { lang: 'en', theme: 'dark', width: 1280 },
  { lang: 'en', theme: 'light', width: 1023 },
  { lang: 'fr', theme: 'dark', width: 1023 },
  { lang: 'fr', theme: 'light', width: 1280 },
];

describe('journeys', () => {
  for (const combo of COMBOS) {
    const { lang, theme, width } = combo;
    const options = { theme, language: LANGUAGE[lang], width, height: 800 } as const;

    it(`every public screen, signed out (${lang}, ${theme}, ${width} px)`, async () => {
      const page = await web.newPage(options);
      await publicJourney(page, combo);
    });

    it(`every screen of a trader (${lang}, ${theme}, ${width} px)`, async () => {
      const { trader } = fixture;
      await savePreferences(trader.user, combo);
      const page = await web.newPage({ ...options, session: trader.user });
      await userScreens(page, combo, 'user', trader);
      // No administration in the navigation of a trader.
      const nav = width < 1024 ? page.getByTestId('mobile-drawer') : page.getByTestId('sidebar');
      if (width < 1024) await page.getByTestId('mobile-nav-toggle').click();
      await nav.getByRole('link', { name: TEXT[lang].nav.settings, exact: true }).waitFor();
      expect(await nav.getByText(TEXT[lang].nav.admin, { exact: true }).count()).toBe(0);
    });

    it(`every screen of an admin (${lang}, ${theme}, ${width} px)`, async () => {
      const { admin, trader } = fixture;
      const t = TEXT[lang];
      await savePreferences(admin.user, combo);
      const page = await web.newPage({ ...options, session: admin.user });
      await userScreens(page, combo, 'admin', admin);

      await viaNav(page, width, t.nav.adminAlerts);
      await check(page, combo, 'admin', 'admin-alerts', page.getByRole('table', { name: t.alerts.title }));
      await expect(h1(page, t.alerts.title).count()).resolves.toBe(1);

      await viaNav(page, width, t.nav.adminBilling);
      await check(page, combo, 'admin', 'admin-billing', h1(page, t.billing.title));

      await routeTo(page, `/admin/billing/user/${trader.user.user.id}`);
      await check(page, combo, 'admin', 'admin-user-billing', h1(page, trader.user.email));
      await page.getByText(t.billing.detail.title, { exact: false }).first().waitFor();

      await viaNav(page, width, t.nav.adminTradeControl);
      await check(page, combo, 'admin', 'admin-trade-control', h1(page, t.tradeControl.title));
    });
  }

  it('sends a trader who opens an admin URL to the dashboard, in French too', async () => {
    const { trader } = fixture;
    await savePreferences(trader.user, { lang: 'fr', theme: 'light', width: 1023 });
    const page = await web.newPage({ session: trader.user, language: 'fr-FR', theme: 'light', width: 1023 });
    for (const path of [
      '/admin/alerts',
      '/admin/billing',
      `/admin/billing/user/${trader.user.user.id}`,
      '/admin/trade-control',
    ]) {
      await page.goto(appUrl(path));
      await page.waitForURL((url) => url.pathname === '/dashboard');
      await h1(page, frFR.translation.dashboard.title).waitFor();
    }
    await screenshot(page, 'journeys/user-fr-light-1023-admin-url');
  });
});
