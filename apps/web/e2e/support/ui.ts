import type { Page } from 'playwright-core';
import { appUrl } from './api';

/**
 * Logs in through the Login screen (English labels), answering the 2FA step when `code` is
 * given, and waits until the app has left /login.
 */
export async function signInWithForm(
  page: Page,
  credentials: { email: string; password: string; code?: () => Promise<string> },
  options: { path?: string } = {},
): Promise<void> {
  if (!page.url().includes('/login')) await page.goto(appUrl(options.path ?? '/login'));
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password', { exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  if (credentials.code) {
    const codeField = page.getByLabel('2FA code');
    await codeField.waitFor();
    await codeField.fill(await credentials.code());
    await page.getByRole('button', { name: 'Verify and log in' }).click();
  }
  await page.waitForURL((url) => url.pathname !== '/login');
}

/** `document.documentElement`'s theme as DESIGN §9 sets it. */
export function themeOf(page: Page): Promise<{ dataTheme: string | undefined; dark: boolean }> {
  return page.evaluate(() => ({
    dataTheme: document.documentElement.dataset.theme,
    dark: document.documentElement.classList.contains('dark'),
  }));
}

/** Logs out through the user menu (English labels) and waits for the Login screen. */
export async function logOutWithMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.waitForURL((url) => url.pathname === '/login');
}
