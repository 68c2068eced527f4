// Issue 21: axe-core on every route, in both themes — a serious or critical violation fails the suite. The
// routes are those of app/routes.ts, each with what it needs to show its content (an account, a strategy, a
// bot, a trade, a billed user, the admin). axe-core is the registry's package, run in the page as it is.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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
// Evaluated through the DevTools protocol: the app's Content-Security-Policy forbids inline scripts.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** The serious and critical violations axe finds on the page as it is now, one line each. */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document, options: object) => Promise<unknown> } }
    ).axe;
    // Names hold their visible label (issue 21): axe's experimental rule, on.
    const result = (await axe.run(document, {
      resultTypes: ['violations'],
      rules: { 'label-content-name-mismatch': { enabled: true } },
    })) as { violations: unknown[] };
    return result.violations;
  });
  return (found as AxeViolation[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (node) => `${v.impact} ${v.id} (${v.help}) at ${node.target.join(' ')}: ${node.failureSummary ?? ''}`,
      ),
    );
}

const VIEWS = [
  { theme: 'dark', width: 1280 },
  { theme: 'light', width: 1280 },
  { theme: 'dark', width: 390 },
] as const;

describe('accessibility (axe-core: no serious or critical violation)', () => {
  for (const { theme, width } of VIEWS) {
    it(`every route in the ${theme} theme at ${width} px`, { timeout: 240_000 }, async () => {
      const world = await arrangeTrader();
      const admin = await adminUser();
      const found: string[] = [];
      const check = async (session: TestUser | undefined, routes: string[]) => {
        // A full load per route opens a new event stream before the server has seen the last one go: past the
        // per-user cap (issue 20) the new stream ends the oldest, so none is refused.
        const page = await web.newPage({ theme, session, width });
        for (const route of routes) {
          await openScreen(page, appUrl(route));
          for (const line of await violations(page)) found.push(`${theme} ${width} ${route}: ${line}`);
        }
      };
      await check(undefined, PUBLIC_ROUTES);
      await check(world.trader, traderRoutes(world));
      await check(admin, adminRoutes(world.trader));
      expect(found, found.join('\n')).toEqual([]);
    });
  }
});

/** What has the focus: its tag, accessible name as shown, and whether it is inside an open dialog. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return {
      tag: element?.tagName.toLowerCase() ?? '',
      type: element?.getAttribute('type') ?? '',
      text: (element?.getAttribute('aria-label') ?? element?.textContent ?? '').trim(),
      inDialog: Boolean(element?.closest('[role="dialog"], [role="alertdialog"]')),
    };
  });
}

/**
 * Opens a dialog with its trigger and checks it as a keyboard user meets it: focus on its first field (never on
 * Close), axe on the open dialog, and focus back on the trigger once Escape closed it.
 */
async function checkDialog(
  page: Page,
  found: string[],
  where: string,
  trigger: string,
  /** The focused element's tags allowed: a field's (input, select, textarea) or a button's. */
  expectFocus: string[],
  inside?: () => Promise<void>,
) {
  await page.getByRole('button', { name: trigger, exact: true }).first().click();
  const dialog = page.locator('[role="dialog"], [role="alertdialog"]');
  await dialog.waitFor();
  // The dialog's content may load (the wizard's accounts); its first field is focused once it is there.
  await page.waitForFunction(() => !document.querySelector('[role="dialog"] .animate-pulse'), null, {
    timeout: 5000,
  });
  const onOpen = await focused(page);
  expect(onOpen.inDialog, `${where}: focus inside the dialog`).toBe(true);
  expect(onOpen.text, `${where}: focus not on Close`).not.toBe('Close');
  expect(expectFocus, `${where}: focus on ${onOpen.tag} "${onOpen.text}"`).toContain(onOpen.tag);
  await inside?.();
  for (const line of await violations(page)) found.push(`${where} (dialog open): ${line}`);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  const onClose = await focused(page);
  expect(onClose.text, `${where}: focus back on its trigger`).toBe(trigger);
}

const FIELD = ['input', 'select', 'textarea'];

describe('dialogs (issue 21: focus in and back, Enter in the wizard, axe with the dialog open)', () => {
  // Dark at both widths: the light theme's colours are the routes' (checked above), and the suite's time counts.
  for (const { theme, width } of VIEWS.filter((view) => view.theme === 'dark')) {
    it(`the main dialogs in the ${theme} theme at ${width} px`, { timeout: 120_000 }, async () => {
      const { trader, botId } = await arrangeTrader();
      const found: string[] = [];
      const page = await web.newPage({ theme, session: trader, width });

      await page.goto(appUrl('/accounts'), { waitUntil: 'networkidle' });
      await checkDialog(page, found, 'connect account', 'Connect an account', FIELD);

      await page.goto(appUrl('/bots'), { waitUntil: 'networkidle' });
      await checkDialog(page, found, 'bot wizard', 'New bot', FIELD, async () => {
        // Enter goes forward and never closes the wizard; the next step's first choice takes the focus.
        await page.keyboard.type('Keyboard bot');
        await page.keyboard.press('Enter');
        await page.getByText('Step 2 of 7: Trading account').waitFor();
        expect(await focused(page)).toMatchObject({ tag: 'input', type: 'radio', inDialog: true });
      });

      await page.goto(appUrl('/bots?tab=strategies'), { waitUntil: 'networkidle' });
      await checkDialog(page, found, 'strategy form', 'New strategy', FIELD);

      await page.goto(appUrl(`/bot/${botId}`), { waitUntil: 'networkidle' });
      // The bot holds nothing: no question to answer, so the safe answer (Cancel) has the focus.
      await checkDialog(page, found, 'stop bot', 'Stop', ['button']);

      expect(found, found.join('\n')).toEqual([]);
    });
  }
});
