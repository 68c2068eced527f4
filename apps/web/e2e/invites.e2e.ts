// Issue 20 in a browser: the admin makes an invite link in Admin → Invites and copies it from the one place it
// is shown; the invitee opens it in a browser of their own, is told they were invited and registers; the admin's
// list then says who used it, and a second link is revoked. (The run's server keeps registration open, as the
// other journeys register freely: a working invite is used up either way, test/admin/invites.test.ts covers the
// closed registration's refusals.) Screenshots on demand: E2E_SCREENSHOTS=1 npx vitest run -c e2e/vitest.config.ts invites
import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD, adminUser, appUrl, screenshot, setupBrowser, uniqueEmail } from './support';

const web = setupBrowser();

describe('invite links', () => {
  it('are made by the admin, used by the invitee, shown used, and revoked', async () => {
    const admin = await adminUser();
    const invitee = uniqueEmail('invitee');
    const page = await web.newPage({ session: admin });
    await page.goto(appUrl('/admin/alerts'));
    await page.getByRole('link', { name: 'Invites' }).first().click();
    await page.waitForURL('**/admin/invites');

    await page.getByLabel('For whom (only you see it)').fill(`for ${invitee}`);
    await page.getByRole('button', { name: 'Create invite link' }).click();
    const field = page.getByRole('textbox', { name: 'New invite link' });
    await field.waitFor();
    const link = new URL(await field.inputValue());
    expect(link.pathname).toBe('/register');
    expect(link.searchParams.get('invite')).toMatch(/^kinv_/);
    if (process.env.E2E_SCREENSHOTS) await screenshot(page, 'invites/made', { fullPage: true });

    const visitor = await web.newPage();
    await visitor.goto(appUrl(`${link.pathname}${link.search}`));
    await visitor.getByText('You were invited').waitFor();
    await visitor.getByLabel('Email').fill(invitee);
    await visitor.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await visitor.getByLabel('Confirm password').fill(DEFAULT_PASSWORD);
    await visitor.getByRole('button', { name: 'Create account' }).click();
    await visitor.waitForURL((url) => url.pathname === '/login');

    await page.reload();
    const table = page.getByRole('table', { name: 'Invite links' });
    const used = table.getByRole('row').filter({ hasText: `for ${invitee}` });
    await used.getByText('Used').waitFor();
    expect(await used.innerText()).toContain(invitee);
    expect(await used.getByRole('button', { name: /Revoke/ }).count()).toBe(0);

    await page.getByLabel('For whom (only you see it)').fill(`second ${invitee}`);
    await page.getByRole('button', { name: 'Create invite link' }).click();
    const second = table.getByRole('row').filter({ hasText: `second ${invitee}` });
    await second.getByText('Pending').waitFor();
    await second.getByRole('button', { name: `Revoke the invite second ${invitee}` }).click();
    await second.getByText('Revoked').waitFor();
    if (process.env.E2E_SCREENSHOTS) await screenshot(page, 'invites/list', { fullPage: true });
  });
});
