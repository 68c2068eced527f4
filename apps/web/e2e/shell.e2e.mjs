/* global document -- page.evaluate callbacks run in the browser */
// Journeys of issue 3. Run against any server that serves the built app:
//   npx vite preview --port 4173 &  BASE_URL=http://localhost:4173 npm run test:e2e -w @kairos/web
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, launchBrowser, openPage, useFakeSession } from './browser.mjs';

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

describe('app shell in a browser', () => {
  it('sends a visitor to Login with the full intended path as redirect', async () => {
    const { context, page } = await openPage(browser);
    await page.goto(`${BASE_URL}/bots?page=2&status=open`);
    await page.waitForURL(/\/login\?/);
    const url = new URL(page.url());
    assert.equal(url.pathname, '/login');
    assert.equal(url.searchParams.get('redirect'), '/bots?page=2&status=open');
    await page.getByRole('heading', { name: 'Log in to Kairos' }).waitFor();
    await context.close();
  });

  it('shows NotFound for an unknown path, with a way home', async () => {
    const { context, page } = await openPage(browser);
    await page.goto(`${BASE_URL}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Back to the home page' }).getAttribute('href'), '/');
    await context.close();
  });

  it('is dark by default and keeps the chosen theme after a reload', async () => {
    const { context, page } = await openPage(browser);
    await page.goto(`${BASE_URL}/`);
    const theme = () =>
      page.evaluate(() => ({
        dataTheme: document.documentElement.dataset.theme,
        dark: document.documentElement.classList.contains('dark'),
      }));
    assert.deepEqual(await theme(), { dataTheme: 'dark', dark: true });
    await page.getByRole('button', { name: 'Switch to the light theme' }).click();
    assert.deepEqual(await theme(), { dataTheme: 'light', dark: false });
    await page.reload();
    assert.deepEqual(await theme(), { dataTheme: 'light', dark: false });
    await context.close();
  });

  it('switches texts and currency to French', async () => {
    const { context, page } = await openPage(browser);
    await page.goto(`${BASE_URL}/components`);
    await page.getByRole('heading', { name: 'Components', level: 1 }).waitFor();
    assert.ok((await page.locator('main').innerText()).includes('$1,234,567.891'));
    await page.getByTestId('language-switcher').first().selectOption('fr-FR');
    await page.getByRole('heading', { name: 'Composants', level: 1 }).waitFor();
    const text = (await page.locator('main').innerText()).replace(/[\u202f\u00a0]/g, ' ');
    assert.ok(text.includes('1 234 567,891 €'), 'amounts are in euros with French separators');
    await page.reload();
    await page.getByRole('heading', { name: 'Composants', level: 1 }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr-FR');
    await context.close();
  });

  it('shows the sidebar from 1024 px and the menu button at 1023 px', async () => {
    for (const [width, sidebar, toggle] of [
      [1024, true, false],
      [1023, false, true],
    ]) {
      const { context, page } = await openPage(browser, { width });
      await useFakeSession(page);
      await page.goto(`${BASE_URL}/dashboard`);
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      assert.equal(await page.getByTestId('sidebar').isVisible(), sidebar, `sidebar at ${width}px`);
      assert.equal(
        await page.getByTestId('mobile-nav-toggle').isVisible(),
        toggle,
        `menu button at ${width}px`,
      );
      await context.close();
    }
  });

  for (const theme of ['dark', 'light']) {
    it(`renders /components in the ${theme} theme with no console errors`, async () => {
      const { context, page, errors } = await openPage(browser);
      await page.addInitScript((chosen) => localStorage.setItem('theme', chosen), theme);
      await page.goto(`${BASE_URL}/components`, { waitUntil: 'networkidle' });
      await page.getByRole('heading', { name: 'Components', level: 1 }).waitFor();
      await page.locator('.tv-lightweight-charts').first().waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});
