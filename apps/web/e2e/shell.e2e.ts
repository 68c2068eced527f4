// The app shell against the real server (issue 3): guards, NotFound, theme, language, layout, showcase.
import { describe, expect, it } from 'vitest';
import { appUrl, registerUser, signInWithForm, themeOf, setupBrowser } from './support';

const web = setupBrowser();

describe('app shell', () => {
  it('sends a visitor to Login with the full intended path, and there after logging in', async () => {
    const trader = await registerUser();
    const page = await web.newPage();
    await page.goto(appUrl('/settings?tab=notifications&from=e2e'));
    await page.waitForURL(/\/login\?/);
    const url = new URL(page.url());
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('redirect')).toBe('/settings?tab=notifications&from=e2e');
    await page.getByRole('heading', { name: 'Log in to Kairos' }).waitFor();

    await signInWithForm(page, trader);
    const landed = new URL(page.url());
    expect(`${landed.pathname}${landed.search}`).toBe('/settings?tab=notifications&from=e2e');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  });

  it('shows NotFound for an unknown path, with a way home', async () => {
    const page = await web.newPage();
    await page.goto(appUrl('/no/such/page'));
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to the home page' }).getAttribute('href')).toBe('/');
  });

  it('is dark by default and keeps the chosen theme after a reload', async () => {
    const page = await web.newPage();
    await page.goto(appUrl('/'));
    expect(await themeOf(page)).toEqual({ dataTheme: 'dark', dark: true });
    await page.getByRole('button', { name: 'Switch to the light theme' }).click();
    expect(await themeOf(page)).toEqual({ dataTheme: 'light', dark: false });
    await page.reload();
    expect(await themeOf(page)).toEqual({ dataTheme: 'light', dark: false });
  });

  it('switches texts and currency to French, and keeps French after a reload', async () => {
    const page = await web.newPage();
    await page.goto(appUrl('/components'));
    await page.getByRole('heading', { name: 'Components', level: 1 }).waitFor();
    expect(await page.locator('main').innerText()).toContain('$1,234,567.891');
    await page.getByTestId('language-switcher').first().selectOption('fr-FR');
    await page.getByRole('heading', { name: 'Composants', level: 1 }).waitFor();
    const text = (await page.locator('main').innerText()).replace(/[\u202f\u00a0]/g, ' ');
    expect(text, 'amounts are in euros with French separators').toContain('1 234 567,891 €');
    await page.reload();
    await page.getByRole('heading', { name: 'Composants', level: 1 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr-FR');
  });

  it('shows the sidebar from 1024 px and the menu button at 1023 px', async () => {
    const trader = await registerUser();
    for (const [width, sidebar, menuButton] of [
      [1024, true, false],
      [1023, false, true],
    ] as const) {
      const page = await web.newPage({ width, session: trader });
      await page.goto(appUrl('/settings'));
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      expect(await page.getByTestId('sidebar').isVisible(), `sidebar at ${width}px`).toBe(sidebar);
      expect(await page.getByTestId('mobile-nav-toggle').isVisible(), `menu button at ${width}px`).toBe(
        menuButton,
      );
    }
  });

  for (const theme of ['dark', 'light'] as const) {
    it(`renders /components in the ${theme} theme with no console errors`, async () => {
      const page = await web.newPage({ theme });
      await page.goto(appUrl('/components'), { waitUntil: 'networkidle' });
      await page.getByRole('heading', { name: 'Components', level: 1 }).waitFor();
      await page.locator('.tv-lightweight-charts').first().waitFor();
      expect((await themeOf(page)).dataTheme).toBe(theme);
      // setupBrowser() fails the test on any console error, uncaught exception or failed request.
    });
  }
});
