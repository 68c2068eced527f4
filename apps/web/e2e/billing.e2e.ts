// Issue 21 in a browser: a user's own Billing screen (GET /api/billing) — their plan, a month billed with its
// fee and its invoice to pay — reached from the account menu; in French too. Screenshots at 1280 and 390 px in
// both themes on demand: E2E_SCREENSHOTS=1 npx vitest run -c e2e/vitest.config.ts billing
import { describe, expect, it } from 'vitest';
import {
  type Envelope,
  adminUser,
  appUrl,
  callApi,
  registerUser,
  screenshot,
  setupBrowser,
  withDatabase,
} from './support';

const web = setupBrowser();

/** Two years ago: a month no other journey processes (processing a month covers every user). */
function longAgo() {
  const d = new Date();
  const at = new Date(Date.UTC(d.getUTCFullYear() - 2, d.getUTCMonth(), 10, 12));
  return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, at };
}

describe('billing', () => {
  it('shows the user their plan, the month billed and the invoice to pay; in French and on a phone', async () => {
    const admin = await adminUser();
    const trader = await registerUser();
    const account = await callApi<Envelope<{ id: string }>>('/api/trading-accounts', {
      token: trader.apiToken,
      body: { nickname: 'Paper billing', exchange: 'paper', marketType: 'spot', startingBalance: '25000' },
    });
    expect(account.status, JSON.stringify(account.body)).toBe(201);
    const month = longAgo();
    await withDatabase((db) =>
      db.query(
        `INSERT INTO trades (user_id, trading_account_id, symbol, side, status, quantity, realised_pnl, opened_at, closed_at)
         VALUES ($1, $2, 'BTC/USDT', 'long', 'closed', '0.1', '400', $3, $4)`,
        [trader.user.id, account.body.results.id, new Date(month.at.getTime() - 3_600_000), month.at],
      ),
    );
    const admins = async (path: string, body: unknown, method = 'POST') => {
      const res = await callApi(path, { token: admin.apiToken, body, method });
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    };
    await admins('/admin/billing/user', { userId: trader.user.id, percent: '25' }, 'PUT');
    await admins('/admin/billing/monthly/process', { year: month.year, month: month.month });
    await admins('/admin/billing/invoice/create', {
      userId: trader.user.id,
      year: month.year,
      month: month.month,
    });

    const page = await web.newPage({ session: trader });
    await page.goto(appUrl('/dashboard'));
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Billing' }).click();
    await page.waitForURL('**/billing');
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    const months = page.getByRole('table', { name: 'Months billed' });
    await months.waitFor();
    expect(await months.innerText()).toMatch(/\+400\.00[\s\S]*100\.00[\s\S]*25\.00%[\s\S]*Invoiced/);
    const invoices = page.getByRole('table', { name: 'Invoices' });
    expect(await invoices.innerText()).toMatch(/INV-[\s\S]*100\.00[\s\S]*USDT[\s\S]*To pay/);
    expect(await page.getByText('Your plan', { exact: true }).locator('..').innerText()).toContain('25.00%');

    for (const theme of ['dark', 'light'] as const) {
      for (const width of [1280, 390]) {
        const shot = await web.newPage({ session: trader, theme, width, height: width === 390 ? 844 : 800 });
        await shot.goto(appUrl('/billing'));
        await shot.getByRole(width === 390 ? 'list' : 'table', { name: 'Invoices' }).waitFor();
        if (width === 390) {
          const overflow = await shot.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          expect(overflow).toBeLessThanOrEqual(0);
        }
        if (process.env.E2E_SCREENSHOTS)
          await screenshot(shot, `billing/${theme}-${width}`, { fullPage: true });
      }
    }
    const french = await web.newPage({ session: trader, language: 'fr-FR' });
    await french.goto(appUrl('/billing'));
    await french.getByRole('table', { name: 'Mois facturés' }).waitFor();
    expect(await french.getByRole('table', { name: 'Factures' }).innerText()).toContain('À payer');
    if (process.env.E2E_SCREENSHOTS) await screenshot(french, 'billing/fr-dark-1280', { fullPage: true });

    // A user with no plan is told nothing is charged.
    const newcomer = await registerUser();
    const empty = await web.newPage({ session: newcomer });
    await empty.goto(appUrl('/billing'));
    await empty.getByText('No month billed yet').waitFor();
    await empty.getByText('Nothing is charged.').waitFor();
  });
});
