// Issue 21 in a browser: the admin's audit log screen over GET /admin/audit — an admin action appears with who
// did it and how it went, the filters go to the server and stay in the address; in French too. Screenshots at
// 1280 and 390 px in both themes on demand: E2E_SCREENSHOTS=1 npx vitest run -c e2e/vitest.config.ts audit
import { describe, expect, it } from 'vitest';
import { ADMIN_EMAIL } from './support/global-setup';
import { adminUser, appUrl, callApi, registerUser, screenshot, setupBrowser } from './support';

const web = setupBrowser();

describe('audit log', () => {
  it('shows an admin action, filters by action and actor, pages; in French and on a phone', async () => {
    const admin = await adminUser();
    const trader = await registerUser();
    const plan = await callApi('/admin/billing/user', {
      token: admin.apiToken,
      method: 'PUT',
      body: { userId: trader.user.id, percent: '12.5' },
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);

    const page = await web.newPage({ session: admin });
    await page.goto(appUrl('/admin/alerts'));
    await page.getByRole('link', { name: 'Audit log' }).first().click();
    await page.waitForURL('**/admin/audit');
    const table = page.getByRole('table', { name: 'Audit log' });
    const row = table.getByRole('row').filter({ hasText: `user:${trader.user.id}` });
    await row.waitFor();
    expect(await row.innerText()).toMatch(
      new RegExp(`${ADMIN_EMAIL}[\\s\\S]*billing\\.plan_update[\\s\\S]*Done`),
    );

    await page.getByLabel('Action').fill('billing');
    await page.getByLabel('Action').press('Enter');
    await page.waitForURL('**/admin/audit?action=billing');
    await page.getByLabel('Who').fill('nobody-at-all');
    await page.getByLabel('Who').press('Enter');
    await page.getByText('No entry matches these filters').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await row.waitFor();

    for (const theme of ['dark', 'light'] as const) {
      for (const width of [1280, 390]) {
        const shot = await web.newPage({ session: admin, theme, width, height: width === 390 ? 844 : 800 });
        await shot.goto(appUrl('/admin/audit'));
        await shot.getByRole(width === 390 ? 'list' : 'table', { name: 'Audit log' }).waitFor();
        if (width === 390) {
          const overflow = await shot.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          expect(overflow).toBeLessThanOrEqual(0);
        }
        if (process.env.E2E_SCREENSHOTS)
          await screenshot(shot, `audit/${theme}-${width}`, { fullPage: true });
      }
    }
    const french = await web.newPage({ session: admin, language: 'fr-FR' });
    await french.goto(appUrl('/admin/audit'));
    await french.getByRole('table', { name: 'Journal d’audit' }).waitFor();
    if (process.env.E2E_SCREENSHOTS) await screenshot(french, 'audit/fr-dark-1280', { fullPage: true });
  });
});
