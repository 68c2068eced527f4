// Issue 21 in a browser: a screen's code that cannot be fetched while the server is unreachable is tried again
// (the app says so and stays), and loads once the server is back; "a new version" only when the server's build
// id differs from the page's.
import { describe, expect, it } from 'vitest';
import { appUrl, registerUser, screenshot, setupBrowser } from './support';

const web = setupBrowser();

describe('chunk recovery', () => {
  it('retries a screen while the server is unreachable, then shows it', async () => {
    const trader = await registerUser();
    const page = await web.newPage({
      session: trader,
      allowProblems: [/net::ERR_FAILED|Failed to fetch|ERR_INTERNET_DISCONNECTED|dynamically imported/i],
    });
    await page.goto(appUrl('/dashboard'));
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    // The outage: nothing from the server answers.
    await page.route('**/*', (route) => route.abort('internetdisconnected'));
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Trades' })
      .click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Kairos cannot reach the server — retrying…' })
      .waitFor();
    expect(await page.getByText('A new version of Kairos').count()).toBe(0);
    if (process.env.E2E_SCREENSHOTS) await screenshot(page, 'chunk-recovery/unreachable');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' }).count()).resolves.toBe(1);

    await page.unroute('**/*');
    await page.getByRole('heading', { level: 1, name: 'Trades' }).waitFor({ timeout: 15_000 });
    expect(await page.getByText('Kairos cannot reach the server').count()).toBe(0);
  });

  it('says a new version is out when the server serves another build', async () => {
    const trader = await registerUser();
    const page = await web.newPage({
      session: trader,
      allowProblems: [/net::ERR_FAILED|Failed to fetch|dynamically imported/i],
    });
    await page.goto(appUrl('/dashboard'));
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.route('**/assets/**', (route) => route.abort('failed'));
    await page.route('**/build.json', (route) =>
      route.fulfill({ contentType: 'application/json', body: '{"buildId":"another-build"}' }),
    );
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Trades' })
      .click();
    await page.getByText('A new version of Kairos is available. Reload the page to continue.').waitFor();
  });
});
