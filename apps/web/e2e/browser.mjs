// Browser harness: playwright-core driving the system Chromium (never a downloaded browser).
import { chromium } from 'playwright-core';

export const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:4173').replace(/\/$/, '');

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}

/** A fresh context and page that records console errors and uncaught exceptions. */
export async function openPage(browser, { width = 1280, height = 800 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return { context, page, errors };
}

export const API_PREFIXES = /\/(api|auth|admin|market|portfolio|user|bots)(\/|$)/;

/**
 * A logged-in session without a server: the stored session of spec §9 plus empty API answers.
 * Browser navigations (documents) still go to the server under test.
 */
export async function useFakeSession(page, user = {}) {
  await page.route(API_PREFIXES, (route) =>
    route.request().resourceType() === 'document'
      ? route.fallback()
      : route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ success: true, results: [] }),
        }),
  );
  await page.addInitScript(
    (stored) => {
      if (!localStorage.getItem('auth_token')) {
        localStorage.setItem('auth_token', 'e2e-token');
        localStorage.setItem('auth_user', JSON.stringify(stored));
      }
    },
    { id: 'e2e', email: 'e2e@example.com', role: 'user', ...user },
  );
}
