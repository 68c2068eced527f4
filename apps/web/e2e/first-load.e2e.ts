// Issue 21's first load in a browser: index.html paints the header before any script has run, and starts the
// signed-in Dashboard's reads itself (app/early-reads.ts); the screens take those answers instead of asking again.
import { describe, expect, it } from 'vitest';
import { appUrl, post, registerUser, setupBrowser } from './support';

const web = setupBrowser();

describe('first load', () => {
  it('paints the header before the scripts and asks for each Dashboard read once', async () => {
    const trader = await registerUser();
    await post(trader, '/api/trading-accounts', {
      nickname: 'Paper first load',
      exchange: 'paper',
      marketType: 'spot',
      startingBalance: '10000',
    });
    const page = await web.newPage({ session: trader, width: 390, height: 844 });

    // Without its scripts the page still shows the header's logo.
    await page.route('**/assets/*.js', (route) => route.abort('blockedbyclient'));
    web.allowProblems(page, /net::ERR_BLOCKED_BY_CLIENT|Failed to load module script/i);
    await page.goto(appUrl('/dashboard'));
    const shell = page.locator('.boot-shell-bar');
    expect(await shell.textContent()).toContain('Kairos');
    expect((await shell.boundingBox())?.height).toBe(56);
    await page.unroute('**/assets/*.js');

    const asked: string[] = [];
    const scripts = new Set<string>();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (request.resourceType() === 'script') scripts.add(url.pathname);
      if (url.pathname.startsWith('/api/') && request.method() === 'GET')
        asked.push(url.pathname + url.search);
    });
    await page.goto(appUrl('/dashboard'));
    await page.getByText('Your account is connected: now create a bot').waitFor();
    // The Dashboard's code came in a dozen scripts, not 30 (issue 21: over HTTP/1.1 a phone fetches six at a time;
    // vite.config.ts puts the Dashboard with its layout and schemas in one chunk).
    expect([...scripts].length).toBeLessThanOrEqual(14);
    const once = (path: string) => asked.filter((url) => url.startsWith(path));
    await expect.poll(() => once('/api/dashboard?include=openPositions').length).toBe(1);
    // Each read the Dashboard needs was sent once: by index.html, and taken by the screen.
    expect(once('/api/trading-accounts')).toHaveLength(1);
    expect(once('/api/bots')).toHaveLength(1);
    expect(once('/api/dashboard?from=')).toHaveLength(1);
    expect(once('/api/dashboard?include=equity')).toHaveLength(1);
    expect(once('/api/dashboard?include=openPositions')).toHaveLength(1);
    // index.html sent them (its reads are all taken: none left waiting).
    const left = await page.evaluate(() => {
      const early = (window as unknown as Record<string, { reads: object } | undefined>).__kairosEarlyReads;
      return early ? Object.keys(early.reads) : 'no early reads';
    });
    expect(left).toEqual([]);
    // The app replaced the painted header with its own.
    expect(await page.locator('.boot-shell-bar').count()).toBe(0);
  });
});
