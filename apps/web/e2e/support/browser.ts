import fs from 'node:fs';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type TestUser, baseUrl, fakeIp } from './api';
import { screenshot } from './screenshot';

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

/**
 * The system Chromium (Debian's package), never a downloaded browser. Playwright gives every
 * launch a new temporary profile (user-data dir) and removes it on close.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) {
    throw new Error(`no Chromium at ${executablePath}: apt-get update && apt-get install -y chromium`);
  }
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

export interface NewPageOptions {
  /** Viewport; 1280 × 800 unless given. */
  width?: number;
  height?: number;
  /** Logged in as this user from the first navigation (the stored session of spec §9). */
  session?: TestUser;
  /** Stored preferences before the first navigation (the app's defaults otherwise: dark, en-US). */
  theme?: 'dark' | 'light';
  language?: 'en-US' | 'fr-FR';
  /**
   * Problems this test expects, matched against each problem line, for instance
   * `/HTTP 401 POST \/auth\/login/`. Anything else fails the test.
   */
  allowProblems?: RegExp[];
}

/**
 * Calls the web makes that the server does not answer yet. Each entry is a known gap, not a
 * licence: delete it as soon as the server implements the call.
 */
const KNOWN_SERVER_GAPS: RegExp[] = [];

interface OpenPage {
  page: Page;
  context: BrowserContext;
  problems: string[];
  allowed: RegExp[];
}

/** Collects what would make a real user's page broken: errors, uncaught exceptions, failed calls. */
function watchProblems(page: Page, problems: string[]): void {
  const origin = baseUrl();
  const where = (url: string) => (url.startsWith(origin) ? url.slice(origin.length) : url);
  page.on('console', (message) => {
    // Chromium also logs every HTTP error status; those are reported below with method and path.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console.error: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) {
      problems.push(`HTTP ${response.status()} ${response.request().method()} ${where(response.url())}`);
    }
  });
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? 'failed';
    // A navigation cancels the requests of the page it leaves: not a user-visible failure.
    if (reason !== 'net::ERR_ABORTED') {
      problems.push(`request failed: ${reason} ${request.method()} ${where(request.url())}`);
    }
  });
}

function storedState(options: NewPageOptions) {
  const localStorage: Array<{ name: string; value: string }> = [];
  if (options.session) {
    localStorage.push(
      { name: 'auth_token', value: options.session.apiToken },
      { name: 'auth_refresh_token', value: options.session.refreshToken },
      { name: 'auth_user', value: JSON.stringify(options.session.user) },
    );
  }
  if (options.theme) localStorage.push({ name: 'theme', value: options.theme });
  if (options.language) localStorage.push({ name: 'language', value: options.language });
  return { cookies: [], origins: localStorage.length ? [{ origin: baseUrl(), localStorage }] : [] };
}

/**
 * Call once at the top of a test file. Launches Chromium for the file; `newPage()` opens a fresh
 * context (own storage, own client IP) whose console errors, uncaught exceptions and failed or
 * error-status requests fail the test after it ran. A failing test leaves a screenshot in
 * `apps/web/screenshots/failures/`.
 */
export function setupBrowser() {
  let browser: Browser | undefined;
  let open: OpenPage[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  afterEach(async (context) => {
    const pages = open;
    open = [];
    const failed = context.task.result?.state === 'fail' || (context.task.result?.errors?.length ?? 0) > 0;
    if (failed) {
      const name = `failures/${context.task.name.replace(/[^\w-]+/g, '-').slice(0, 80)}`;
      await Promise.all(
        pages.map((entry, index) =>
          screenshot(entry.page, index ? `${name}-${index}` : name).catch(() => undefined),
        ),
      );
    }
    await Promise.all(pages.map((entry) => entry.context.close().catch(() => undefined)));
    const unexpected = pages.flatMap((entry) =>
      entry.problems.filter(
        (line) => ![...KNOWN_SERVER_GAPS, ...entry.allowed].some((pattern) => pattern.test(line)),
      ),
    );
    if (!failed && unexpected.length) {
      throw new Error(`the page reported problems:\n  ${unexpected.join('\n  ')}`);
    }
  });

  return {
    /** A new page in its own browser context; see NewPageOptions. */
    async newPage(options: NewPageOptions = {}): Promise<Page> {
      if (!browser) throw new Error('setupBrowser(): newPage() is for tests, after beforeAll');
      const context = await browser.newContext({
        viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
        extraHTTPHeaders: { 'X-Forwarded-For': fakeIp() },
        storageState: storedState(options),
        // A French page is a French browser's (navigator.language, Accept-Language); Chromium still draws a date
        // field's mm/dd/yyyy from its own language, which a page cannot set.
        locale: options.language ?? 'en-US',
        timezoneId: 'UTC',
      });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      const entry: OpenPage = { page, context, problems: [], allowed: options.allowProblems ?? [] };
      watchProblems(page, entry.problems);
      open.push(entry);
      return page;
    },
    /** Allows more problem lines on a page opened by newPage(), from now on. */
    allowProblems(page: Page, ...patterns: RegExp[]): void {
      open.find((entry) => entry.page === page)?.allowed.push(...patterns);
    },
    /** Problem lines seen so far on a page opened by newPage(). */
    problems(page: Page): string[] {
      return [...(open.find((entry) => entry.page === page)?.problems ?? [])];
    },
  };
}
